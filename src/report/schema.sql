-- SPDX-License-Identifier: Apache-2.0
-- The canonical schema of a gsys report (NAME.gsys-rep), schema version 1.
--
-- Tables that nsys defines keep the names, columns, column order, types and comments of
-- `nsys export --type sqlite` as of the newest exports studied (nsys 2026.2, export schema 3.25.0;
-- TARGET_INFO_GPU and OSRT_API from 2025.1/2026.1, see docs/report-schema.md). Only the tables gsys
-- writes or reads are listed here; nsys exports may hold many more, and readers ignore the rest.
-- gsys's own tables are GSYS_*. The report reader (src/report/reader) presents exactly these tables
-- and columns over any nsys export from 2020.3 on, so analysis SQL is written against this file.
--
-- Conventions (as in nsys): timestamps are int64 ns relative to the session start; names are ids
-- into StringIds; globalTid = (hw << 56) | (vm << 48) | (pid << 24) | tid, globalPid = globalTid with
-- the tid bits 0. Correlation ids are per process: join API rows to GPU rows on correlationId AND
-- (api.globalTid & ~0xFFFFFF) = gpu.globalPid.
--
-- This file is embedded into the binary at build time (reader/schema.h) and documented in
-- docs/report-schema.md, which tools/gen_report_schema_doc.py generates from the comments below.
-- Bump gsys_schema_version (PRAGMA user_version and GSYS_META) on every incompatible change.

PRAGMA user_version = 1;


-- ================================================================================================
-- Strings, processes, threads
-- ================================================================================================

CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);

CREATE TABLE ThreadNames (
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Thread name
    priority                    INTEGER,                               -- Priority of the thread.
    globalTid                   INTEGER                                -- Serialized GlobalId.
);

CREATE TABLE PROCESSES (
    -- Names and identifiers of processes captured in the report.

    globalPid                   INTEGER,                               -- Serialized GlobalId.
    pid                         INTEGER,                               -- The process ID.
    name                        TEXT                                   -- The process name.
);


-- ================================================================================================
-- Target and session information
-- ================================================================================================

CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT,                                  -- Start of the capture in local time of target.
    systemClockNs               INTEGER                                -- Target system clock timestamp at start of the capture (ns).
);

CREATE TABLE TARGET_INFO_SYSTEM_ENV (
    -- Facts about the machine that captured (nsys's layout). gsys writes the CPU count and
    -- architecture, host name, OS and kernel release, and the environment (secret values
    -- redacted, common/secret_env.h).

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    devStateName                TEXT      NOT NULL,                    -- Device state name.
    name                        TEXT      NOT NULL,                    -- Property name.
    nameEnum                    INTEGER   NOT NULL,                    -- Property enum value.
    value                       TEXT      NOT NULL                     -- Property value.
);

CREATE TABLE ANALYSIS_DETAILS (
    -- Details about the analysis session.

    globalVid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    duration                    INTEGER   NOT NULL,                    -- The total time span of the entire trace (ns).
    startTime                   INTEGER   NOT NULL,                    -- Trace start timestamp in nanoseconds.
    stopTime                    INTEGER   NOT NULL                     -- Trace stop timestamp in nanoseconds.
);

CREATE TABLE TARGET_INFO_GPU (
    vmId                        INTEGER   NOT NULL,                    -- Serialized GlobalId.
    id                          INTEGER   NOT NULL,                    -- Device ID.
    name                        TEXT,                                  -- Device name.
    busLocation                 TEXT,                                  -- PCI bus location.
    isDiscrete                  INTEGER,                               -- True if discrete, false if integrated.
    l2CacheSize                 INTEGER,                               -- Size of L2 cache (B).
    totalMemory                 INTEGER,                               -- Total amount of memory on the device (B).
    memoryBandwidth             INTEGER,                               -- Amount of memory transferred (B).
    clockRate                   INTEGER,                               -- Clock frequency (Hz).
    smCount                     INTEGER,                               -- Number of multiprocessors on the device.
    pwGpuId                     INTEGER,                               -- PerfWorks GPU ID.
    uuid                        TEXT,                                  -- Device UUID.
    luid                        INTEGER,                               -- Device LUID.
    chipName                    TEXT,                                  -- Chip name.
    cuDevice                    INTEGER,                               -- CUDA device ID.
    ctxswDevPath                TEXT,                                  -- GPU context switch device node path.
    ctrlDevPath                 TEXT,                                  -- GPU control device node path.
    revision                    INTEGER,                               -- Revision number.
    nodeMask                    INTEGER,                               -- Device node mask.
    constantMemory              INTEGER,                               -- Memory available on device for __constant__ variables (B).
    maxIPC                      INTEGER,                               -- Maximum instructions per count.
    maxRegistersPerBlock        INTEGER,                               -- Maximum number of 32-bit registers available per block.
    maxShmemPerBlock            INTEGER,                               -- Maximum optin shared memory per block.
    maxShmemPerBlockOptin       INTEGER,                               -- Maximum optin shared memory per block.
    maxShmemPerSm               INTEGER,                               -- Maximum shared memory available per multiprocessor (B).
    maxRegistersPerSm           INTEGER,                               -- Maximum number of 32-bit registers available per multiprocessor.
    threadsPerWarp              INTEGER,                               -- Warp size in threads.
    asyncEngines                INTEGER,                               -- Number of asynchronous engines.
    maxWarpsPerSm               INTEGER,                               -- Maximum number of warps per multiprocessor.
    maxBlocksPerSm              INTEGER,                               -- Maximum number of blocks per multiprocessor.
    maxThreadsPerBlock          INTEGER,                               -- Maximum number of threads per block.
    maxBlockDimX                INTEGER,                               -- Maximum X-dimension of a block.
    maxBlockDimY                INTEGER,                               -- Maximum Y-dimension of a block.
    maxBlockDimZ                INTEGER,                               -- Maximum Z-dimension of a block.
    maxGridDimX                 INTEGER,                               -- Maximum X-dimension of a grid.
    maxGridDimY                 INTEGER,                               -- Maximum Y-dimension of a grid.
    maxGridDimZ                 INTEGER,                               -- Maximum Z-dimension of a grid.
    computeMajor                INTEGER,                               -- Major compute capability version number.
    computeMinor                INTEGER,                               -- Minor compute capability version number.
    smMajor                     INTEGER,                               -- Major multiprocessor version number.
    smMinor                     INTEGER                                -- Minor multiprocessor version number.
);

CREATE TABLE TARGET_INFO_CUDA_STREAM (
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
    vmId                        INTEGER   NOT NULL,                    -- VM ID.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    priority                    INTEGER   NOT NULL,                    -- Priority of the stream.
    flag                        INTEGER   NOT NULL                     -- REFERENCES ENUM_CUPTI_STREAM_TYPE(id)
);

CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (
    -- One row per CUDA context (written with the CUDA import).

    nullStreamId                INTEGER   NOT NULL,                    -- Stream ID of the context's NULL stream.
    hwId                        INTEGER   NOT NULL,                    -- Hardware ID.
    vmId                        INTEGER   NOT NULL,                    -- VM ID.
    processId                   INTEGER   NOT NULL,                    -- Process ID.
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    parentContextId             INTEGER,                               -- For a green context, the context it was created from.
    isGreenContext              INTEGER                                -- 1 for a green context.
);


-- ================================================================================================
-- CUDA activity
-- ================================================================================================

CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    demangledName               INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Kernel function name w/ templates
    shortName                   INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Base kernel function name
    mangledName                 INTEGER,                               -- REFERENCES StringIds(id) -- Raw C++ mangled kernel function name
    launchType                  INTEGER,                               -- REFERENCES ENUM_CUDA_KERNEL_LAUNCH_TYPE(id)
    cacheConfig                 INTEGER,                               -- REFERENCES ENUM_CUDA_FUNC_CACHE_CONFIG(id)
    registersPerThread          INTEGER   NOT NULL,                    -- Number of registers required for each thread executing the kernel.
    gridX                       INTEGER   NOT NULL,                    -- X-dimension grid size.
    gridY                       INTEGER   NOT NULL,                    -- Y-dimension grid size.
    gridZ                       INTEGER   NOT NULL,                    -- Z-dimension grid size.
    blockX                      INTEGER   NOT NULL,                    -- X-dimension block size.
    blockY                      INTEGER   NOT NULL,                    -- Y-dimension block size.
    blockZ                      INTEGER   NOT NULL,                    -- Z-dimension block size.
    staticSharedMemory          INTEGER   NOT NULL,                    -- Static shared memory allocated for the kernel (B).
    dynamicSharedMemory         INTEGER   NOT NULL,                    -- Dynamic shared memory reserved for the kernel (B).
    localMemoryPerThread        INTEGER   NOT NULL,                    -- Amount of local memory reserved for each thread (B).
    localMemoryTotal            INTEGER   NOT NULL,                    -- Total amount of local memory reserved for the kernel (B).
    gridId                      INTEGER   NOT NULL,                    -- Unique grid ID of the kernel assigned at runtime.
    sharedMemoryExecuted        INTEGER,                               -- Shared memory size set by the driver.
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    sharedMemoryLimitConfig     INTEGER,                               -- REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)
    qmdBulkReleaseDone          INTEGER,                               -- QMD bulk release done timestamp from CWD events.
    qmdPreexitDone              INTEGER,                               -- QMD pre-exit done timestamp from CWD events.
    qmdLastCtaDone              INTEGER,                               -- QMD last CTA done timestamp from CWD events.
    graphId                     INTEGER,                               -- Kernel graph ID.
    clusterX                    INTEGER,                               -- Cluster X dimension.
    clusterY                    INTEGER,                               -- Cluster Y dimension.
    clusterZ                    INTEGER,                               -- Cluster Z dimension.
    clusterSchedulingPolicy     INTEGER,                               -- Cluster scheduling policy.
    maxPotentialClusterSize     INTEGER,                               -- Maximum potential cluster size.
    maxActiveClusters           INTEGER,                               -- Maximum active clusters.
    sharedMemoryRequestedPercentage   INTEGER,                         -- Shared memory requested percentage.
    tensorSizeMinusOneElements   TEXT                                 -- TMA descriptor tensor size minus one elements array. (nsys 2026.2 declares NOT NULL; gsys leaves it NULL.)
);

CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    correlationId               INTEGER,                               -- ID used to identify events that this function call has triggered.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
    callchainId                 INTEGER                                -- REFERENCES CUDA_CALLCHAINS(id)
);

CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes transferred (B).
    copyKind                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_MEMCPY_OPER(id)
    deprecatedSrcId             INTEGER,                               -- Deprecated, use srcDeviceId instead.
    srcKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    dstKind                     INTEGER,                               -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    srcDeviceId                 INTEGER,                               -- Source device ID.
    srcContextId                INTEGER,                               -- Source context ID.
    dstDeviceId                 INTEGER,                               -- Destination device ID.
    dstContextId                INTEGER,                               -- Destination context ID.
    migrationCause              INTEGER,                               -- REFERENCES ENUM_CUDA_UNIF_MEM_MIGRATION(id)
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    virtualAddress              INTEGER,                               -- Virtual base address of the page/s being transferred.
    copyCount                   INTEGER                                -- The total number of memcopy operations traced in this record. In CUDA MemcpyBatchAsync APIs, multiple memcpy operations may be batched together for optimization purposes based on certain heuristics.
);

CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    value                       INTEGER   NOT NULL,                    -- Value assigned to memory.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes set (B).
    graphNodeId                 INTEGER,                               -- REFERENCES CUDA_GRAPH_NODE_EVENTS(graphNodeId)
    memKind                     INTEGER                                -- REFERENCES ENUM_CUDA_MEM_KIND(id)
);

CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- Correlation ID of the synchronization API to which this result is associated.
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    deprecatedSyncType          INTEGER,                               -- Deprecated, use syncType instead. For older report, REFERENCES ENUM_CUPTI_SYNC_TYPE(id)
    syncType                    INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUPTI_SYNC_TYPE(id)
    eventId                     INTEGER   NOT NULL,                    -- Event ID for which the synchronization API is called.
    eventSyncId                 INTEGER                                -- CUDA Event Sync ID to link the synchronization API to associated event record API.
);

CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (
    -- Whole-graph executions (--cuda-graph-trace=graph).

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    greenContextId              INTEGER,                               -- Green context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    graphId                     INTEGER   NOT NULL,                    -- Graph ID.
    graphExecId                 INTEGER   NOT NULL                     -- Graph execution ID.
);

CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (
    -- GPU memory allocations and frees (--cuda-memory-usage=true).

    start                       INTEGER   NOT NULL,                    -- Event timestamp (ns).
    globalPid                   INTEGER   NOT NULL,                    -- Serialized GlobalId.
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    address                     INTEGER   NOT NULL,                    -- Virtual address of the allocation.
    pc                          INTEGER   NOT NULL,                    -- Program counter of the allocation.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes allocated or freed.
    memKind                     INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_MEM_KIND(id)
    memoryOperationType         INTEGER   NOT NULL,                    -- REFERENCES ENUM_CUDA_DEV_MEM_EVENT_OPER(id)
    name                        TEXT,                                  -- Variable name, if available.
    correlationId               INTEGER,                               -- REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)
    streamId                    INTEGER,                               -- Stream ID.
    localMemoryPoolAddress      INTEGER,                               -- Base address of the local memory pool.
    localMemoryPoolReleaseThreshold INTEGER,                           -- Release threshold of the local memory pool (B).
    localMemoryPoolSize         INTEGER,                               -- Size of the local memory pool (B).
    localMemoryPoolUtilizedSize INTEGER,                               -- Utilized size of the local memory pool (B).
    importedMemoryPoolAddress   INTEGER,                               -- Base address of the imported memory pool.
    importedMemoryPoolProcessId INTEGER                                -- Process ID of the imported memory pool.
);

CREATE TABLE PROFILER_OVERHEAD (
    -- Time the profiler itself spent (CUPTI buffer flushes, initialization).

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Overhead event name
    returnValue                 INTEGER   NOT NULL                     -- Return value of the function call.
);

CREATE TABLE CUDNN_EVENTS (
    -- cuDNN API calls (nsys --trace=cudnn).

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Function name
);

CREATE TABLE CUBLAS_EVENTS (
    -- cuBLAS API calls (nsys --trace=cublas).

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Function name
);

-- ================================================================================================
-- MPI (gsys profile -t mpi: libgsys-mpi.so, PMPI wrappers)
-- ================================================================================================

CREATE TABLE MPI_RANKS (
    -- Which MPI rank (in MPI_COMM_WORLD) each traced thread belongs to.

    globalTid                   INTEGER   NOT NULL,                    -- Serialized GlobalId of the thread that called MPI_Init.
    rank                        INTEGER   NOT NULL                     -- Rank in MPI_COMM_WORLD.
);

CREATE TABLE MPI_P2P_EVENTS (
    -- Point-to-point calls: MPI_Send/Recv and their variants, MPI_Isend/Irecv, MPI_Sendrecv.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Function name (MPI_Send, ...).
    commHandle                  INTEGER,                               -- Communicator handle, as an integer.
    tag                         INTEGER,                               -- Message tag.
    remoteRank                  INTEGER,                               -- Destination or source rank in the communicator.
    size                        INTEGER,                               -- Message size in bytes (count * type size).
    requestHandle               INTEGER                                -- Request handle of a nonblocking call.
);

CREATE TABLE MPI_COLLECTIVES_EVENTS (
    -- Collective calls: barrier, broadcast, reductions, gathers, scatters, all-to-all.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Function name (MPI_Allreduce, ...).
    commHandle                  INTEGER,                               -- Communicator handle, as an integer.
    rootRank                    INTEGER,                               -- Root rank of a rooted collective (bcast, reduce, gather, scatter).
    size                        INTEGER,                               -- Bytes sent by this rank (the send side of two-sided collectives).
    recvSize                    INTEGER,                               -- Bytes received by this rank.
    requestHandle               INTEGER                                -- Request handle of a nonblocking collective.
);

CREATE TABLE MPI_START_WAIT_EVENTS (
    -- MPI_Wait*, MPI_Test* and MPI_Start* calls.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Function name (MPI_Wait, ...).
    requestHandle               INTEGER                                -- Request handle (the first one for the *all/*any variants).
);

CREATE TABLE MPI_OTHER_EVENTS (
    -- Other MPI calls (MPI_Init, MPI_Finalize, ...).

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER                                -- REFERENCES StringIds(id) -- Function name.
);

-- ================================================================================================
-- NVTX and OS runtime
-- ================================================================================================

CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_TYPE(id)
    rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
    category                    INTEGER,                               -- User-controlled ID that can be used to group events.
    color                       INTEGER,                               -- Encoded ARGB color value.
    text                        TEXT,                                  -- Explicit name/text (non-registered string)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    endGlobalTid                INTEGER,                               -- Serialized GlobalId.
    textId                      INTEGER,                               -- REFERENCES StringIds(id) -- Registered NVTX domain/string
    domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
    uint64Value                 INTEGER,                               -- One of possible payload value union members.
    int64Value                  INTEGER,                               -- One of possible payload value union members.
    doubleValue                 REAL,                                  -- One of possible payload value union members.
    uint32Value                 INTEGER,                               -- One of possible payload value union members.
    int32Value                  INTEGER,                               -- One of possible payload value union members.
    floatValue                  REAL,                                  -- One of possible payload value union members.
    jsonTextId                  INTEGER,                               -- One of possible payload value union members.
    jsonText                    TEXT,                                  -- One of possible payload value union members.
    binaryData                  TEXT                                   -- Binary payload. See docs for format.
);

CREATE TABLE OSRT_API (
    -- OS runtime libraries traced to gather information about low-level userspace APIs.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- REFERENCES ENUM_NSYS_EVENT_CLASS(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
    nestingLevel                INTEGER,                               -- Zero-base index of the nesting level.
    callchainId                 INTEGER   NOT NULL,                    -- REFERENCES OSRT_CALLCHAINS(id)
    argumentsId                 INTEGER                                -- REFERENCES OSRT_ARGUMENTS(id) -- Experimental. (nsys 2026.1 declares NOT NULL; gsys leaves it NULL.)
);

-- ================================================================================================
-- Stacks: backtraces at traced calls and CPU samples
-- ================================================================================================

CREATE TABLE CUDA_CALLCHAINS (
    -- Native call stacks of CUDA API calls (--cudabacktrace): CUPTI_ACTIVITY_KIND_RUNTIME.callchainId.

    id                          INTEGER   NOT NULL,                    -- Callchain id (one id per distinct stack).
    symbol                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    module                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Module name
    unresolved                  INTEGER,                               -- True if the symbol was not resolved.
    originalIP                  INTEGER,                               -- Instruction pointer value.
    stackDepth                  INTEGER   NOT NULL                     -- Zero-base index of the given function in call stack; (id, stackDepth) is unique.
);

CREATE TABLE OSRT_CALLCHAINS (
    -- Native call stacks of OS runtime calls: OSRT_API.callchainId.

    id                          INTEGER   NOT NULL,                    -- Callchain id (one id per distinct stack).
    symbol                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    module                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Module name
    kernelMode                  INTEGER,                               -- True if kernel mode.
    thumbCode                   INTEGER,                               -- True if thumb code.
    unresolved                  INTEGER,                               -- True if the symbol was not resolved.
    specialEntry                INTEGER,                               -- True if artificial entry added.
    originalIP                  INTEGER,                               -- Instruction pointer value.
    unwindMethod                INTEGER,                               -- REFERENCES ENUM_STACK_UNWIND_METHOD(id)
    stackDepth                  INTEGER   NOT NULL                     -- Zero-base index of the given function in call stack; (id, stackDepth) is unique.
);

CREATE TABLE COMPOSITE_EVENTS (
    -- Thread sampling events (-s process-tree).

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID of the composite event.
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    cpu                         INTEGER,                               -- ID of CPU this thread was running on.
    threadState                 INTEGER,                               -- REFERENCES ENUM_SAMPLING_THREAD_STATE(id)
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    cpuCycles                   INTEGER   NOT NULL                     -- Value of Performance Monitoring Unit (PMU) counter.
);

CREATE TABLE SAMPLING_CALLCHAINS (
    -- Callchain entries obtained from composite events, used to construct function table views.

    id                          INTEGER   NOT NULL,                    -- REFERENCES COMPOSITE_EVENTS(id)
    symbol                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Function name
    module                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Module name
    kernelMode                  INTEGER,                               -- True if kernel mode.
    thumbCode                   INTEGER,                               -- True if thumb code.
    unresolved                  INTEGER,                               -- True if the symbol was not resolved.
    specialEntry                INTEGER,                               -- True if artificial entry added.
    originalIP                  INTEGER,                               -- Instruction pointer value.
    unwindMethod                INTEGER,                               -- REFERENCES ENUM_STACK_UNWIND_METHOD(id)
    stackDepth                  INTEGER   NOT NULL,                    -- Zero-base index of the given function in call stack.

    PRIMARY KEY (id, stackDepth)
);

CREATE TABLE SCHED_EVENTS (
    -- Thread scheduling events (--cpuctxsw process-tree).

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    cpu                         INTEGER   NOT NULL,                    -- ID of CPU this thread was scheduled in or out.
    isSchedIn                   INTEGER   NOT NULL,                    -- 0 if thread was scheduled out, non-zero otherwise.
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    threadState                 INTEGER,                               -- REFERENCES ENUM_SAMPLING_THREAD_STATE(id)
    threadBlock                 INTEGER                                -- REFERENCES ENUM_SAMPLING_THREAD_BLOCK(id)
);

CREATE TABLE GSYS_PYTHON_CALLCHAINS (
    -- Python stacks at traced calls (--python-backtrace=cuda). `id` is the callchainId of the
    -- call's row (CUPTI_ACTIVITY_KIND_RUNTIME or OSRT_API); callchain ids are unique across all
    -- *_CALLCHAINS tables of a gsys report, so a call may have native frames, Python frames or both.

    id                          INTEGER   NOT NULL,                    -- The call's callchainId.
    stackDepth                  INTEGER   NOT NULL,                    -- Zero-base index, innermost Python frame first.
    frameId                     INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- "FILE:LINE FUNCTION"
    fileId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- Source file of the frame.
    line                        INTEGER,                               -- Line being executed in the frame.
    functionId                  INTEGER   NOT NULL                     -- REFERENCES StringIds(id) -- Function (qualified name on 3.11+).
);

-- ================================================================================================
-- Enumerations (values exactly as nsys 2026.2 exports them)
-- ================================================================================================

CREATE TABLE ENUM_NSYS_EVENT_TYPE (
    -- Nsys event type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_NSYS_EVENT_TYPE (id, name, label) VALUES
    (0, 'Unknown', 'Unknown'),
    (1, 'CpuCycles', 'CpuCycles'),
    (2, 'Instructions', 'Instructions'),
    (3, 'CacheReferences', 'CacheReferences'),
    (4, 'L1CacheDataWriteMisses', 'L1CacheDataWriteMisses'),
    (5, 'L1CacheDataReadMisses', 'L1CacheDataReadMisses'),
    (6, 'L1CacheInstructionMisses', 'L1CacheInstructionMisses'),
    (7, 'L2CacheDataWriteMisses', 'L2CacheDataWriteMisses'),
    (8, 'L2CacheDataReadMisses', 'L2CacheDataReadMisses'),
    (9, 'L2CacheInstructionMisses', 'L2CacheInstructionMisses'),
    (10, 'BranchInstructions', 'BranchInstructions'),
    (11, 'BranchMisses', 'BranchMisses'),
    (12, 'BusCycles', 'BusCycles'),
    (13, 'CpuClock', 'CpuClock'),
    (14, 'TaskClock', 'TaskClock'),
    (15, 'PageFault', 'PageFault'),
    (16, 'ContextSwitches', 'ContextSwitches'),
    (17, 'CpuMigrations', 'CpuMigrations'),
    (18, 'PageFaultsMin', 'PageFaultsMin'),
    (19, 'PageFaultsMax', 'PageFaultsMax'),
    (20, 'AlignmentFaults', 'AlignmentFaults'),
    (21, 'EmulationFaults', 'EmulationFaults'),
    (22, 'ThreadState', 'ThreadState'),
    (23, 'Frames', 'Frames'),
    (24, 'Annotations', 'Annotations'),
    (25, 'SchedSwitch', 'SchedSwitch'),
    (26, 'SchedWakeup', 'SchedWakeup'),
    (27, 'Command', 'Command'),
    (28, 'Mmap', 'Mmap'),
    (29, 'MemUsage', 'MemUsage'),
    (30, 'Emc', 'Emc'),
    (31, 'Composite', 'Composite'),
    (32, 'NvtxEvents', 'NvtxEvents'),
    (33, 'NvtxCategory', 'NvtxCategory'),
    (34, 'NvtxMark', 'NvtxMark'),
    (35, 'NvtxPushRange', 'NvtxPushRange'),
    (36, 'NvtxPopRange', 'NvtxPopRange'),
    (37, 'NvtxStartRange', 'NvtxStartRange'),
    (38, 'NvtxEndRange', 'NvtxEndRange'),
    (39, 'NvtxThread', 'NvtxThread'),
    (40, 'PowerRate', 'PowerRate'),
    (41, 'Sched', 'Sched'),
    (42, 'CpuCyclesSelf', 'CpuCyclesSelf'),
    (43, 'CpuCyclesTotal', 'CpuCyclesTotal'),
    (44, 'CpuCyclesSelfPlus', 'CpuCyclesSelfPlus'),
    (45, 'Cuda', 'Cuda'),
    (46, 'CudaDevice', 'CudaDevice'),
    (47, 'TraceProcess', 'TraceProcess'),
    (48, 'TraceFunctions', 'TraceFunctions'),
    (49, 'Diagnostic', 'Diagnostic'),
    (50, 'GlWorkload', 'GlWorkload'),
    (51, 'BandwidthUsage', 'BandwidthUsage'),
    (52, 'KhrDebugMark', 'KhrDebugMark'),
    (53, 'KhrDebugPushRange', 'KhrDebugPushRange'),
    (54, 'KhrDebugPopRange', 'KhrDebugPopRange'),
    (55, 'KhrDebugGpuMark', 'KhrDebugGpuMark'),
    (56, 'KhrDebugGpuPushRange', 'KhrDebugGpuPushRange'),
    (57, 'KhrDebugGpuPopRange', 'KhrDebugGpuPopRange'),
    (58, 'GpuCtxsw', 'GpuCtxsw'),
    (59, 'NvtxPushPopRange', 'NvtxPushPopRange'),
    (60, 'NvtxStartEndRange', 'NvtxStartEndRange'),
    (61, 'ProfTime', 'ProfTime'),
    (62, 'KhrDebugPushPopRange', 'KhrDebugPushPopRange'),
    (63, 'KhrDebugGpuPushPopRange', 'KhrDebugGpuPushPopRange'),
    (64, 'NvtxtCategory', 'NvtxtCategory'),
    (65, 'NvtxtMark', 'NvtxtMark'),
    (66, 'NvtxtPushRange', 'NvtxtPushRange'),
    (67, 'NvtxtPopRange', 'NvtxtPopRange'),
    (68, 'NvtxtStartRange', 'NvtxtStartRange'),
    (69, 'NvtxtEndRange', 'NvtxtEndRange'),
    (70, 'NvtxtPushPopRange', 'NvtxtPushPopRange'),
    (71, 'NvtxtStartEndRange', 'NvtxtStartEndRange'),
    (72, 'NvtxtMetaThread', 'NvtxtMetaThread'),
    (73, 'NvtxtMetaProcess', 'NvtxtMetaProcess'),
    (74, 'NvtxtMetaFileDisplay', 'NvtxtMetaFileDisplay'),
    (75, 'NvtxDomainCreate', 'NvtxDomainCreate'),
    (76, 'NvtxDomainDestroy', 'NvtxDomainDestroy'),
    (77, 'NvnGpuCmdBuf', 'NvnGpuCmdBuf'),
    (78, 'TraceVSync', 'TraceVSync'),
    (79, 'CudaDeviceKernel', 'CudaDeviceKernel'),
    (80, 'CudaDeviceMemory', 'CudaDeviceMemory'),
    (81, 'Pmu', 'Pmu'),
    (82, 'NvnGpuDraw', 'NvnGpuDraw'),
    (83, 'NvnGpuCompute', 'NvnGpuCompute'),
    (84, 'NvnGpuDebug', 'NvnGpuDebug'),
    (85, 'OS runtime libraries', 'OS runtime libraries'),
    (86, 'CuDNN', 'CuDNN'),
    (87, 'CuBLAS', 'CuBLAS'),
    (88, 'NvMedia', 'NvMedia'),
    (89, 'OpenACC', 'OpenACC'),
    (90, 'Correlation', 'Correlation'),
    (91, 'DX12', 'DX12'),
    (92, 'DX12Workload', 'DX12Workload'),
    (93, 'PmuRawEvent', 'PmuRawEvent'),
    (94, 'GraphicsFrame', 'GraphicsFrame'),
    (95, 'Vulkan', 'Vulkan'),
    (96, 'VulkanWorkload', 'VulkanWorkload'),
    (97, 'NvtxNameCudaDevice', 'NvtxNameCudaDevice'),
    (98, 'NvtxNameCudaContext', 'NvtxNameCudaContext'),
    (99, 'NvtxNameCudaStream', 'NvtxNameCudaStream'),
    (100, 'SystemEvent', 'SystemEvent'),
    (101, 'GpuMemoryEvent', 'GpuMemoryEvent'),
    (102, 'DX12CreateObject', 'DX12CreateObject'),
    (103, 'VulkanCreateObject', 'VulkanCreateObject'),
    (104, 'UnitTraceEvent', 'UnitTraceEvent'),
    (105, 'CustomETWEvent', 'CustomETWEvent'),
    (106, 'CudaSyncEvent', 'CudaSyncEvent'),
    (107, 'SLIEvent (DEPRECATED)', 'SLIEvent (DEPRECATED)'),
    (108, 'CudaBacktrace', 'CudaBacktrace'),
    (109, 'WddmEvent', 'WddmEvent'),
    (110, 'DX11', 'DX11'),
    (111, 'DX11CreateObject', 'DX11CreateObject'),
    (112, 'DXGI', 'DXGI'),
    (113, 'CudaGraphNodeCreation', 'CudaGraphNodeCreation'),
    (114, 'OpenMP', 'OpenMP'),
    (115, 'UncorePmuEvent', 'UncorePmuEvent'),
    (116, 'UncorePmuCarmel', 'UncorePmuCarmel'),
    (117, 'CudaDeviceMemoryUsage', 'CudaDeviceMemoryUsage'),
    (118, 'ETWDxgKrnlEvent', 'ETWDxgKrnlEvent'),
    (119, 'CudaUvmCpuPageFaultEvent', 'CudaUvmCpuPageFaultEvent'),
    (120, 'CudaUvmGpuPageFaultEvent', 'CudaUvmGpuPageFaultEvent'),
    (121, 'NICMetricsValuesEvent', 'NICMetricsValuesEvent'),
    (122, 'NICMetricsListEvent', 'NICMetricsListEvent'),
    (123, 'InterruptHandler', 'InterruptHandler'),
    (124, 'NvEncode', 'NvEncode'),
    (125, 'NVDecode', 'NVDecode'),
    (126, 'nvJPEG', 'nvJPEG'),
    (127, 'CudaEventRecord', 'CudaEventRecord'),
    (128, 'PerfEventCountEvent', 'PerfEventCountEvent'),
    (129, 'CudaDeviceMemoryPool', 'CudaDeviceMemoryPool'),
    (130, 'CudaDeviceGraph', 'CudaDeviceGraph'),
    (131, 'CudaGraphExecCreation', 'CudaGraphExecCreation'),
    (132, 'CudaGraphCreation', 'CudaGraphCreation'),
    (133, 'CudaGraphClone', 'CudaGraphClone'),
    (134, 'GpuMemoryTransferEvent', 'GpuMemoryTransferEvent'),
    (135, 'GlTrace', 'GlTrace'),
    (136, 'GpuVideoEngineWorkload', 'GpuVideoEngineWorkload'),
    (137, 'IBSwitchMetricsValuesEvent', 'IBSwitchMetricsValuesEvent'),
    (138, 'GenericEvent', 'GenericEvent'),
    (139, 'UncorePmuT23xScf', 'UncorePmuT23xScf'),
    (140, 'UncorePmuT23xDsu', 'UncorePmuT23xDsu'),
    (141, 'IBSwitchCongestionEvent', 'IBSwitchCongestionEvent'),
    (142, 'CudaDeviceMemcpy', 'CudaDeviceMemcpy'),
    (143, 'PerfMetricValueEvent', 'PerfMetricValueEvent'),
    (144, 'OpenXREvent', 'OpenXREvent'),
    (145, 'TegraInternalEvent', 'TegraInternalEvent'),
    (146, 'TraceStartFinish', 'TraceStartFinish'),
    (147, 'Syscall', 'Syscall'),
    (148, 'CudaConfidentialComputeKeyRotation', 'CudaConfidentialComputeKeyRotation'),
    (149, 'CudaGraphExecNodeSetParams', 'CudaGraphExecNodeSetParams'),
    (150, 'NvApi', 'NvApi'),
    (151, 'CudaHostFunc', 'CudaHostFunc'),
    (152, 'CudaApi', 'CudaApi'),
    (153, 'Overhead', 'Overhead'),
    (154, 'CudaOverhead', 'CudaOverhead');

CREATE TABLE ENUM_NSYS_EVENT_CLASS (
    -- Nsys event class labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_NSYS_EVENT_CLASS (id, name, label) VALUES
    (0, 'TRACE_PROCESS_EVENT_CUDA_RUNTIME', 'CUDA runtime'),
    (1, 'TRACE_PROCESS_EVENT_CUDA_DRIVER', 'CUDA driver'),
    (2, 'TRACE_PROCESS_EVENT_GL', 'GL'),
    (3, 'TRACE_PROCESS_EVENT_TSP_OVERHEAD', 'TSP overhead'),
    (4, 'TRACE_PROCESS_EVENT_GL_DEBUG', 'GL debug'),
    (5, 'TRACE_PROCESS_EVENT_GL_WORKLOAD', 'GL workload'),
    (6, 'TRACE_PROCESS_EVENT_NVTX_START', 'NVTX start'),
    (7, 'TRACE_PROCESS_EVENT_NVTX_FINISH', 'NVTX finish'),
    (8, 'TRACE_PROCESS_EVENT_GL_START', 'GL start'),
    (9, 'TRACE_PROCESS_EVENT_GL_FINISH', 'GL finish'),
    (10, 'TRACE_PROCESS_EVENT_CUDA_START', 'CUDA start'),
    (11, 'TRACE_PROCESS_EVENT_CUDA_FINISH', 'CUDA finish'),
    (12, 'TRACE_PROCESS_EVENT_CUDA_INIT_ERROR', 'CUDA init error'),
    (13, 'TRACE_PROCESS_EVENT_CUDA_EGL_DRIVER', 'CUDA EGL driver'),
    (18, 'TRACE_PROCESS_EVENT_VSYNC', 'Vsync'),
    (26, 'TRACE_PROCESS_EVENT_CUDA_API', 'CUDA API'),
    (27, 'TRACE_PROCESS_EVENT_OS_RUNTIME', 'OSRT runtime'),
    (28, 'TRACE_PROCESS_EVENT_CUDNN', 'cuDNN'),
    (29, 'TRACE_PROCESS_EVENT_CUBLAS', 'cuBLAS'),
    (31, 'TRACE_PROCESS_EVENT_OS_RUNTIME_START', 'OSRT start'),
    (32, 'TRACE_PROCESS_EVENT_OS_RUNTIME_FINISH', 'OSRT finish'),
    (33, 'TRACE_PROCESS_EVENT_CUDNN_START', 'cuDNN start'),
    (34, 'TRACE_PROCESS_EVENT_CUDNN_FINISH', 'cuDNN finish'),
    (35, 'TRACE_PROCESS_EVENT_CUBLAS_START', 'cuBLAS start'),
    (36, 'TRACE_PROCESS_EVENT_CUBLAS_FINISH', 'cuBLAS finish'),
    (37, 'TRACE_PROCESS_EVENT_THREAD_BLOCK', 'Thread block'),
    (38, 'TRACE_PROCESS_EVENT_NVMEDIA', 'NVmedia'),
    (39, 'TRACE_PROCESS_EVENT_NVMEDIA_START', 'NVmedia start'),
    (40, 'TRACE_PROCESS_EVENT_NVMEDIA_FINISH', 'NVmedia finish'),
    (41, 'TRACE_PROCESS_EVENT_DX12_API', 'DX12 API'),
    (42, 'TRACE_PROCESS_EVENT_DX12_WORKLOAD', 'DX12 workload'),
    (43, 'TRACE_PROCESS_EVENT_DX12_START', 'DX12 start'),
    (44, 'TRACE_PROCESS_EVENT_DX12_FINISH', 'DX12 finish'),
    (45, 'TRACE_PROCESS_EVENT_OPENACC_START', 'OpenACC start'),
    (46, 'TRACE_PROCESS_EVENT_OPENACC_FINISH', 'OpenACC finish'),
    (47, 'TRACE_PROCESS_EVENT_OPENACC_INIT_ERROR', 'OpenACC init error'),
    (48, 'TRACE_PROCESS_EVENT_OPENACC', 'OpenACC'),
    (49, 'TRACE_PROCESS_EVENT_CPU_FPS', 'CPU FPS'),
    (50, 'TRACE_PROCESS_EVENT_GPU_FPS', 'GPU FPS'),
    (51, 'TRACE_PROCESS_EVENT_GL_MULTI_ERROR', 'GL multi-error'),
    (52, 'TRACE_PROCESS_EVENT_DX12_DISPLAY', 'DX12 display'),
    (53, 'TRACE_PROCESS_EVENT_VULKAN_API', 'Vulkan API'),
    (54, 'TRACE_PROCESS_EVENT_VULKAN_WORKLOAD', 'Vulkan workload'),
    (55, 'TRACE_PROCESS_EVENT_VULKAN_START', 'Vulkan start'),
    (56, 'TRACE_PROCESS_EVENT_VULKAN_FINISH', 'Vulkan finish'),
    (57, 'TRACE_PROCESS_EVENT_SYSTEM_EVENT', 'System event'),
    (58, 'TRACE_PROCESS_EVENT_GPU_MEMORY', 'GPU memory'),
    (59, 'TRACE_PROCESS_EVENT_DX12_CREATE_OBJECT', 'DX12 create object'),
    (60, 'TRACE_PROCESS_EVENT_VULKAN_CREATE_OBJECT', 'Vulkan create object'),
    (61, 'TRACE_PROCESS_EVENT_CUSTOM_ETW_TRACE', 'Custom ETW trace'),
    (62, 'TRACE_PROCESS_EVENT_SLI_DEPRECATED', 'SLI (Deprecated)'),
    (63, 'TRACE_PROCESS_EVENT_SLI_START_DEPRECATED', 'SLI start (Deprecated)'),
    (64, 'TRACE_PROCESS_EVENT_SLI_FINISH_DEPRECATED', 'SLI finish (Deprecated)'),
    (65, 'TRACE_PROCESS_EVENT_DX12_DEBUG_API', 'DX12 debug API'),
    (66, 'TRACE_PROCESS_EVENT_VULKAN_DEBUG_API', 'Vulkan debug API'),
    (67, 'TRACE_PROCESS_EVENT_CUDABACKTRACE', 'CUDA backtrace'),
    (68, 'TRACE_PROCESS_EVENT_CUDABACKTRACE_START', 'CUDA backtrace start'),
    (69, 'TRACE_PROCESS_EVENT_CUDABACKTRACE_FINISH', 'CUDA backtrace finish'),
    (70, 'TRACE_PROCESS_EVENT_WDDM', 'WDDM'),
    (71, 'TRACE_PROCESS_EVENT_DX11_API', 'DX11 API'),
    (72, 'TRACE_PROCESS_EVENT_DX11_START', 'DX11 start'),
    (73, 'TRACE_PROCESS_EVENT_DX11_FINISH', 'DX11 finish'),
    (74, 'TRACE_PROCESS_EVENT_DX11_CREATE_OBJECT', 'DX11 create object'),
    (75, 'TRACE_PROCESS_EVENT_DX11_DEBUG_API', 'DX11 debug API'),
    (76, 'TRACE_PROCESS_EVENT_DXCOMMON_API', 'DX common API'),
    (77, 'TRACE_PROCESS_EVENT_CUDA_GRAPH_NODE_CREATION', 'CUDA graph node creation'),
    (78, 'TRACE_PROCESS_EVENT_OPENMP', 'OpenMP'),
    (79, 'TRACE_PROCESS_EVENT_OPENMP_START', 'OpenMP start'),
    (80, 'TRACE_PROCESS_EVENT_OPENMP_FINISH', 'OpenMP finish'),
    (81, 'TRACE_PROCESS_EVENT_NVAPI', 'NV API'),
    (82, 'TRACE_PROCESS_EVENT_ETWDXGKRNL', 'ETW DXG KRNL'),
    (83, 'TRACE_PROCESS_EVENT_NVENCODE', 'NVENCODE'),
    (84, 'TRACE_PROCESS_EVENT_NVENCODE_START', 'NVENCODE start'),
    (85, 'TRACE_PROCESS_EVENT_NVENCODE_FINISH', 'NVENCODE finish'),
    (86, 'TRACE_PROCESS_EVENT_NVDECODE', 'NVDECODE'),
    (87, 'TRACE_PROCESS_EVENT_NVDECODE_START', 'NVDECODE start'),
    (88, 'TRACE_PROCESS_EVENT_NVDECODE_FINISH', 'NVDECODE finish'),
    (89, 'TRACE_PROCESS_EVENT_NVJPEG', 'nvJPEG'),
    (90, 'TRACE_PROCESS_EVENT_NVJPEG_START', 'nvJPEG start'),
    (91, 'TRACE_PROCESS_EVENT_NVJPEG_FINISH', 'nvJPEG finish'),
    (92, 'TRACE_PROCESS_EVENT_DX12_BATCH_WORKLOAD', 'DX12 batch workload'),
    (93, 'TRACE_PROCESS_EVENT_VULKAN_BATCH_WORKLOAD', 'Vulkan batch workload'),
    (94, 'TRACE_PROCESS_EVENT_CUDA_GRAPHEXEC_CREATION', 'CUDA graph exec creation'),
    (95, 'TRACE_PROCESS_EVENT_CUDA_GRAPH_CREATION', 'CUDA graph creation'),
    (96, 'TRACE_PROCESS_EVENT_CUDA_GRAPH_CLONE', 'CUDA graph clone'),
    (98, 'TRACE_PROCESS_EVENT_OPENCL', 'OpenCL event'),
    (99, 'TRACE_PROCESS_EVENT_OPENCL_START', 'OpenCL start'),
    (100, 'TRACE_PROCESS_EVENT_OPENCL_FINISH', 'OpenCL finish'),
    (101, 'TRACE_PROCESS_EVENT_OPENCL_INIT_ERROR', 'OpenCL Init error'),
    (102, 'TRACE_PROCESS_EVENT_CUDA_JIT', 'CUDA JIT'),
    (103, 'TRACE_PROCESS_EVENT_CUDA_OVERHEAD', 'CUDA overhead'),
    (104, 'TRACE_PROCESS_EVENT_OPENXR', 'OpenXR event'),
    (105, 'TRACE_PROCESS_EVENT_OPENXR_START', 'OpenXR start'),
    (106, 'TRACE_PROCESS_EVENT_OPENXR_FINISH', 'OpenXR finish'),
    (107, 'TRACE_PROCESS_EVENT_SYSCALL', 'Syscall'),
    (108, 'TRACE_PROCESS_EVENT_TEGRA_INTERNAL', 'Tegra Internal API'),
    (109, 'TRACE_PROCESS_EVENT_TEGRA_INTERNAL_START', 'Tegra Internal API start'),
    (110, 'TRACE_PROCESS_EVENT_TEGRA_INTERNAL_FINISH', 'Tegra Internal API finish'),
    (111, 'TRACE_PROCESS_EVENT_CUDA_GRAPH_EXEC_NODE_SET_PARAMS', 'CUDA graph exec-node set params');

CREATE TABLE ENUM_CUDA_MEMCPY_OPER (
    -- CUDA memcpy operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_MEMCPY_OPER (id, name, label) VALUES
    (0, 'CUDA_MEMCPY_KIND_UNKNOWN', 'Unknown'),
    (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),
    (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'),
    (3, 'CUDA_MEMCPY_KIND_HTOA', 'Host-to-Array'),
    (4, 'CUDA_MEMCPY_KIND_ATOH', 'Array-to-Host'),
    (5, 'CUDA_MEMCPY_KIND_ATOA', 'Array-to-Array'),
    (6, 'CUDA_MEMCPY_KIND_ATOD', 'Array-to-Device'),
    (7, 'CUDA_MEMCPY_KIND_DTOA', 'Device-to-Array'),
    (8, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'),
    (9, 'CUDA_MEMCPY_KIND_HTOH', 'Host-to-Host'),
    (10, 'CUDA_MEMCPY_KIND_PTOP', 'Peer-to-Peer'),
    (11, 'CUDA_MEMCPY_KIND_UVM_HTOD', 'Unified Host-to-Device'),
    (12, 'CUDA_MEMCPY_KIND_UVM_DTOH', 'Unified Device-to-Host'),
    (13, 'CUDA_MEMCPY_KIND_UVM_DTOD', 'Unified Device-to-Device');

CREATE TABLE ENUM_CUDA_MEM_KIND (
    -- CUDA memory kind labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_MEM_KIND (id, name, label) VALUES
    (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
    (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),
    (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'),
    (3, 'CUDA_MEMOPR_MEMORY_KIND_ARRAY', 'Array'),
    (4, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED', 'Managed'),
    (5, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC', 'Device Static'),
    (6, 'CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC', 'Managed Static'),
    (7, 'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN', 'Unknown');

CREATE TABLE ENUM_CUPTI_SYNC_TYPE (
    -- CUPTI synchronization type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUPTI_SYNC_TYPE (id, name, label) VALUES
    (0, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN', 'Unknown'),
    (1, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE', 'Event sync'),
    (2, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT', 'Stream wait sync'),
    (3, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE', 'Stream sync'),
    (4, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE', 'Context sync');

CREATE TABLE ENUM_CUPTI_STREAM_TYPE (
    -- CUPTI stream type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUPTI_STREAM_TYPE (id, name, label) VALUES
    (0, 'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN', 'Unknown stream type'),
    (1, 'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT', 'Default stream'),
    (2, 'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING', 'Non-blocking stream'),
    (3, 'CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL', 'Null stream');

CREATE TABLE ENUM_CUDA_KERNEL_LAUNCH_TYPE (
    -- CUDA kernel launch type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_KERNEL_LAUNCH_TYPE (id, name, label) VALUES
    (0, 'CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN', 'Unknown'),
    (1, 'CUDA_KERNEL_LAUNCH_TYPE_REGULAR', 'Regular'),
    (2, 'CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE', 'Coop Single Device'),
    (3, 'CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_MULTI_DEVICE', 'Coop Multi Device');

CREATE TABLE ENUM_CUDA_FUNC_CACHE_CONFIG (
    -- CUDA function cache config labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_FUNC_CACHE_CONFIG (id, name, label) VALUES
    (0, 'CU_FUNC_CACHE_PREFER_NONE', 'None'),
    (1, 'CU_FUNC_CACHE_PREFER_SHARED', 'Shared'),
    (2, 'CU_FUNC_CACHE_PREFER_L1', 'L1'),
    (3, 'CU_FUNC_CACHE_PREFER_EQUAL', 'Equal');

CREATE TABLE ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG (
    -- CUDA shared memory limit config labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG (id, name, label) VALUES
    (0, 'CUDA_SHARED_MEM_LIMIT_DEFAULT', 'Default'),
    (1, 'CUDA_SHARED_MEM_LIMIT_OPTIN', 'Opt in');

CREATE TABLE ENUM_CUDA_UNIF_MEM_MIGRATION (
    -- CUDA unified memory migration cause labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_UNIF_MEM_MIGRATION (id, name, label) VALUES
    (0, 'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_UNKNOWN', 'Unknown'),
    (1, 'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_USER', 'User prefetch'),
    (2, 'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE', 'Page fault'),
    (3, 'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH', 'Speculative prefecth'),
    (4, 'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION', 'Eviction'),
    (5, 'CUDA_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS', 'Access counters');

CREATE TABLE ENUM_CUDA_UNIF_MEM_ACCESS_TYPE (
    -- CUDA unified memory access type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_UNIF_MEM_ACCESS_TYPE (id, name, label) VALUES
    (0, 'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_UNKNOWN', 'Unknown'),
    (1, 'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_READ', 'Read'),
    (2, 'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_WRITE', 'Write'),
    (3, 'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_ATOMIC', 'Atomic'),
    (4, 'CUPTI_ACTIVITY_UNIFIED_MEMORY_ACCESS_TYPE_PREFETCH', 'Prefetch');

CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (
    -- CUDA device mem event operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_DEV_MEM_EVENT_OPER (id, name, label) VALUES
    (0, 'CUDA_DEV_MEM_EVENT_OPR_ALLOCATION', 'Allocation'),
    (1, 'CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION', 'Deallocation');

CREATE TABLE ENUM_CUDA_MEMPOOL_TYPE (
    -- CUDA mempool type labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_MEMPOOL_TYPE (id, name, label) VALUES
    (0, 'CUPTI_ACTIVITY_MEMORY_POOL_TYPE_INVALID', 'Invalid'),
    (1, 'CUPTI_ACTIVITY_MEMORY_POOL_TYPE_LOCAL', 'Local'),
    (2, 'CUPTI_ACTIVITY_MEMORY_POOL_TYPE_IMPORTED', 'Imported');

CREATE TABLE ENUM_CUDA_MEMPOOL_OPER (
    -- CUDA mempool operation labels

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.
    name                        TEXT,                                  -- Enum symbol name.
    label                       TEXT                                   -- Enum human name.
);
INSERT INTO ENUM_CUDA_MEMPOOL_OPER (id, name, label) VALUES
    (0, 'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_INVALID', 'Invalid'),
    (1, 'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_CREATED', 'Created'),
    (2, 'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_DESTROYED', 'Destroyed'),
    (3, 'CUPTI_ACTIVITY_MEMORY_POOL_OPERATION_TYPE_TRIMMED', 'Trimmed');


-- ================================================================================================
-- Export metadata
-- ================================================================================================

CREATE TABLE META_DATA_EXPORT (
    -- information about nsys export process

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);

CREATE TABLE META_DATA_CAPTURE (
    -- information about nsys capture parameters

    name                        TEXT      NOT NULL,                    -- Name of meta-data record
    value                       TEXT                                   -- Value of meta-data record
);


-- ================================================================================================
-- gsys's own tables
-- ================================================================================================

CREATE TABLE GSYS_META (
    -- Facts about the report and the run that produced it (one row per key).
    -- Keys: gsys_schema_version (this file's version, equal to PRAGMA user_version), tool_version
    -- (gsys version), format_version (raw capture format version the importer read),
    -- command_line (the profiled command), host (host name), and, when known, gpu, driver_version,
    -- cuda_version, session_start_utc_ns, capture_start_ns, capture_end_ns, cpu_sampling_method
    -- (-s: "perf_event ..." or "timer-signal ..." with the reason perf_event was not used; one
    -- per distinct note, separated by " | "), and the capture machine's host_cpu_cores,
    -- host_cpu_architecture, host_os_description, host_kernel_release and host_utc_offset_s
    -- (session.meta, format/host_facts.h).

    name                        TEXT      NOT NULL   PRIMARY KEY,      -- Key.
    value                       TEXT                                   -- Value, as text.
);
INSERT INTO GSYS_META (name, value) VALUES ('gsys_schema_version', '1');

CREATE TABLE GSYS_DIAGNOSTICS (
    -- Data-quality counters (report/diagnostics.h): dropped records, clock problems, unmatched
    -- correlation ids, ... One row per counter that the capture or the importer bumped.

    name                        TEXT      NOT NULL   PRIMARY KEY,      -- Counter name (snake_case).
    severity                    TEXT      NOT NULL,                    -- One of 'info', 'data_loss', 'error'.
    value                       INTEGER   NOT NULL,                    -- Counter value.
    help                        TEXT                                   -- What the counter means and what to do about it.
);

CREATE TABLE GSYS_LIBRARY_KERNELS (
    -- Kernels launched inside a cuBLAS or cuDNN call (gsys profile -t cuda,cublas,cudnn): the
    -- kernel's launch API call (CUPTI_ACTIVITY_KIND_RUNTIME) lies within the library call on the
    -- same thread; the innermost such call of each library is chosen.

    eventClass                  INTEGER   NOT NULL,                    -- 28: the call is in CUDNN_EVENTS, 29: in CUBLAS_EVENTS (ENUM_NSYS_EVENT_CLASS).
    callId                      INTEGER   NOT NULL,                    -- rowid of the call in CUDNN_EVENTS or CUBLAS_EVENTS.
    correlationId               INTEGER   NOT NULL,                    -- The kernel's correlationId (CUPTI_ACTIVITY_KIND_KERNEL).
    globalPid                   INTEGER   NOT NULL                     -- The kernel's globalPid; with correlationId it identifies the kernel.
);

CREATE TABLE GSYS_COLLECTIVES (
    -- Collective-communication metadata of a torch.profiler (Kineto) trace read by `gsys import
    -- trace.json`: one row per NCCL kernel and per CPU op (record_param_comms) that carries
    -- torch's "Collective name" arguments. Kernel rows join CUPTI_ACTIVITY_KIND_KERNEL on
    -- correlationId and globalPid; CPU-op rows lie on the thread of their NVTX_EVENTS range.

    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    source                      TEXT      NOT NULL,                    -- 'kernel' (GPU) or 'cpu_op' (CPU).
    globalPid                   INTEGER,                               -- Serialized GlobalId of the process.
    globalTid                   INTEGER,                               -- Serialized GlobalId of the thread (cpu_op rows).
    deviceId                    INTEGER,                               -- Device ID (kernel rows).
    streamId                    INTEGER,                               -- Stream ID (kernel rows).
    correlationId               INTEGER,                               -- The kernel's correlationId (kernel rows).
    nameId                      INTEGER   NOT NULL,                    -- REFERENCES StringIds(id) -- The event's name (kernel or op).
    collective                  TEXT      NOT NULL,                    -- Collective name (allreduce, allgather, send, ...).
    dtype                       TEXT,                                  -- Element type as torch names it (Float, BFloat16, ...).
    inNelems                    INTEGER,                               -- Input message size in elements.
    outNelems                   INTEGER,                               -- Output message size in elements.
    inBytes                     INTEGER,                               -- Input message size (B): inNelems times the dtype's size, when the dtype is known.
    outBytes                    INTEGER,                               -- Output message size (B), likewise.
    groupSize                   INTEGER,                               -- Ranks in the process group.
    groupName                   TEXT,                                  -- Process group name.
    groupDescription            TEXT,                                  -- Process group description (default_pg, ...).
    groupRanks                  TEXT,                                  -- Global ranks of the process group, as torch writes them ("[0, 1]").
    inSplitSizes                TEXT,                                  -- All-to-all input split sizes, as written.
    outSplitSizes               TEXT,                                  -- All-to-all output split sizes, as written.
    globalRankStart             INTEGER,                               -- First global rank of the group.
    globalRankStride            INTEGER                                -- Stride between the group's global ranks.
);

CREATE TABLE GSYS_GPU_METRICS (
    -- GPU metrics sampled through NVML by `gsys profile` itself (--gpu-metrics-devices,
    -- --gpu-metrics-frequency), one row per device per sample. A column is NULL when the device
    -- or driver does not report that metric.

    timestamp                   INTEGER   NOT NULL,                    -- Sample time (ns), on the session's CLOCK_MONOTONIC timeline.
    deviceId                    INTEGER   NOT NULL,                    -- NVML device index.
    gpuUtilization              INTEGER,                               -- Percent of the last sample period a kernel was running (nvmlDeviceGetUtilizationRates.gpu).
    memoryUtilization           INTEGER,                               -- Percent of the last sample period device memory was read or written.
    smClockMHz                  INTEGER,                               -- SM clock (MHz).
    memoryClockMHz              INTEGER,                               -- Memory clock (MHz).
    memoryUsedBytes             INTEGER,                               -- Device memory in use (bytes).
    memoryTotalBytes            INTEGER,                               -- Device memory size (bytes).
    powerMilliwatts             INTEGER,                               -- Power draw (mW).
    temperatureC                INTEGER,                               -- GPU temperature (degrees C).
    pcieTxKBps                  INTEGER,                               -- PCIe transmit throughput (KB/s) over a 20 ms NVML window, refreshed every 250 ms.
    pcieRxKBps                  INTEGER,                               -- PCIe receive throughput (KB/s) over a 20 ms NVML window, refreshed every 250 ms.
    nvlinkTxBytes               INTEGER,                               -- NVLink bytes transmitted since the session start (all links).
    nvlinkRxBytes               INTEGER,                               -- NVLink bytes received since the session start (all links).
    smActivePercent             REAL,                                  -- Percent of the last sample period SMs were busy (NVML GPM SM_UTIL; Hopper and newer).
    smOccupancyPercent          REAL,                                  -- Resident warps as a percent of the maximum, over the last sample period (GPM SM_OCCUPANCY).
    tensorActivePercent         REAL,                                  -- Percent of the last sample period the tensor cores were busy (GPM ANY_TENSOR_UTIL).
    dramBandwidthPercent        REAL                                   -- DRAM bandwidth used as a percent of the peak, over the last sample period (GPM DRAM_BW_UTIL).
);

CREATE TABLE GSYS_GPU_METRICS_DEVICES (
    -- The devices GSYS_GPU_METRICS samples.

    deviceId                    INTEGER   NOT NULL   PRIMARY KEY,      -- NVML device index.
    name                        TEXT,                                  -- Product name (nvmlDeviceGetName).
    uuid                        TEXT,                                  -- Device UUID (nvmlDeviceGetUUID).
    busId                       TEXT                                   -- PCI bus id (nvmlDeviceGetPciInfo).
);
