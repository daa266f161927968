// SPDX-License-Identifier: Apache-2.0
// The nsys tables CUDA import writes that schema.sql does not define yet (nsys export column
// names and order). Created with IF NOT EXISTS, so a later schema.sql that adds them wins.
#pragma once

namespace gsys::report {

inline constexpr const char* kCudaExtraSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS CUPTI_ACTIVITY_KIND_GRAPH_TRACE (
    start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, graphId INTEGER NOT NULL,
    graphExecId INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS CUDA_GPU_MEMORY_USAGE_EVENTS (
    start INTEGER NOT NULL, globalPid INTEGER NOT NULL, deviceId INTEGER NOT NULL,
    contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
    bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL,
    name TEXT, correlationId INTEGER, streamId INTEGER, localMemoryPoolAddress INTEGER,
    localMemoryPoolReleaseThreshold INTEGER, localMemoryPoolSize INTEGER,
    localMemoryPoolUtilizedSize INTEGER, importedMemoryPoolAddress INTEGER,
    importedMemoryPoolProcessId INTEGER);
CREATE TABLE IF NOT EXISTS TARGET_INFO_CUDA_CONTEXT_INFO (
    nullStreamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL,
    processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
    parentContextId INTEGER, isGreenContext INTEGER);
CREATE TABLE IF NOT EXISTS PROFILER_OVERHEAD (
    start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER,
    nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ENUM_CUDA_DEV_MEM_EVENT_OPER (
    id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, label TEXT);
INSERT OR IGNORE INTO ENUM_CUDA_DEV_MEM_EVENT_OPER (id, name, label) VALUES
    (0, 'CUDA_DEV_MEM_EVENT_OPR_ALLOCATION', 'Allocation'),
    (1, 'CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION', 'Deallocation');
)sql";

}  // namespace gsys::report
