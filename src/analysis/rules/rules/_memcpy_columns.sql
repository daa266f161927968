-- _memcpy_columns: the output columns of the memcpy rules over memcpy row `m`.
  m.end - m.start AS "Duration:dur_ns",
  m.start AS "Start:ts_ns",
  sk.label AS "Src Kind",
  dk.label AS "Dst Kind",
  m.bytes AS "Bytes:mem_B",
  (m.globalPid >> 24) & 0x00FFFFFF AS "PID",
  m.deviceId AS "Device ID",
  m.contextId AS "Context ID",
  NULLIF(m.greenContextId, 0) AS "Green Context ID",
  m.streamId AS "Stream ID",
  sid.value AS "API Name"
