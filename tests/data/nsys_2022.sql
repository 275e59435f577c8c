-- nsight_systems/pipit_saxpy_mpi_cuda/saxpy-mpi-cuda_nsys_perlmutter0.sqlite (tests/data/sqlite-excerpts.py)
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT                                   -- Start of the capture in local time of target.
);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1687813257637297504, '2023-06-26T21:00:57', '2023-06-26T14:00:57');
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
INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 0, 'NVIDIA A100-SXM4-40GB', '0000:03:00.0', 1, 41943040, 42297524224, 1555200000000, 1410000000, 108, 0, '74e128b2-90b6-b409-07c8-33bee5ff6f88', 0, 'GA100', 0, '', '', 161, 0, 65536, 4, 65536, 49152, 166912, 167936, 65536, 32, 5, 64, 32, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 8, 0, 8, 2);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER   REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId), -- ID used to identify the API call that launched the event.
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    demangledName               INTEGER   NOT NULL,                    -- StringId of the kernel name
    shortName                   INTEGER   NOT NULL,                    -- StringId of the short function name without arguments.
    mangledName                 INTEGER,                               -- StringId of the mangled function name.
    launchType                  INTEGER,                               -- Launch type of the kernel. See docs for specifics.
    cacheConfig                 INTEGER,                               -- Cache configuration used for the kernel. See enum CUfunc_cache.
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
    graphNodeId                 INTEGER   REFERENCES CUDA_GRAPH_EVENTS(graphNodeId), -- CUDA graph node creation ID.
    sharedMemoryLimitConfig     INTEGER                                -- Shared memory limit per block config. See enum CUpti_FuncShmemLimitConfig.
);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (924922186, 942626994, 0, 1, 7, 140, 302119223558144, 670, 671, 642, 1, 1, 26, 2, 1, 1, 512, 1, 1, 0, 0, 0, 127401984, 1, 16384, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1196058242, 1213791658, 0, 1, 7, 156, 302119223558144, 670, 671, 642, 1, 1, 26, 2, 1, 1, 512, 1, 1, 0, 0, 0, 127401984, 2, 16384, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1449177557, 1466878365, 0, 1, 7, 172, 302119223558144, 670, 671, 642, 1, 1, 26, 2, 1, 1, 512, 1, 1, 0, 0, 0, 127401984, 3, 16384, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1696275954, 1713996442, 0, 1, 7, 188, 302119223558144, 670, 671, 642, 1, 1, 26, 2, 1, 1, 512, 1, 1, 0, 0, 0, 127401984, 4, 16384, NULL, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    deviceId                    INTEGER   NOT NULL,                    -- Device ID.
    contextId                   INTEGER   NOT NULL,                    -- Context ID.
    streamId                    INTEGER   NOT NULL,                    -- Stream ID.
    correlationId               INTEGER   REFERENCES CUPTI_ACTIVITY_KIND_RUNTIME(correlationId), -- ID used to identify the API call that launched the event.
    globalPid                   INTEGER,                               -- Serialized GlobalId.
    bytes                       INTEGER   NOT NULL,                    -- Number of bytes transferred (B).
    copyKind                    INTEGER   NOT NULL,                    -- Type of the memory copy. See enum CUDA_MEMCPY_KIND.
    deprecatedSrcId             INTEGER,                               -- Deprecated, use srcDeviceId instead.
    srcKind                     INTEGER,                               -- Source memory kind See enum CUDA_MEMOPR_MEMORY_KIND.
    dstKind                     INTEGER,                               -- Destination memory kind. See enum CUDA_MEMOPR_MEMORY_KIND.
    srcDeviceId                 INTEGER,                               -- Source device ID.
    srcContextId                INTEGER,                               -- Source context ID.
    dstDeviceId                 INTEGER,                               -- Destination device ID.
    dstContextId                INTEGER,                               -- Destination context ID.
    migrationCause              INTEGER,                               -- UVM migration cause ID. See CUpti_ActivityUnifiedMemoryMigrationCause.
    graphNodeId                 INTEGER   REFERENCES CUDA_GRAPH_EVENTS(graphNodeId), -- CUDA graph node creation ID.
    virtualAddress              INTEGER                                -- Virtual base address of the page/s being transferred.
, name TEXT);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (887857742, 906688200, 0, 1, 7, 138, 302119223558144, 262144000, 1, NULL, 0, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (906750887, 924863307, 0, 1, 7, 139, 302119223558144, 262144000, 1, NULL, 0, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER   NOT NULL,                    -- Event end timestamp (ns).
    eventClass                  INTEGER   NOT NULL,                    -- CUDA event class enum value. See docs for specifics.
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    correlationId               INTEGER,                               -- ID used to identify events that this function call has triggered.
    nameId                      INTEGER   NOT NULL   REFERENCES StringIds(id), -- StringId of the function name.
    returnValue                 INTEGER   NOT NULL,                    -- Return value of the function call.
    callchainId                 INTEGER   REFERENCES CUDA_CALLCHAINS(id) -- ID of the attached callchain.
, name TEXT);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (887755510, 906656915, 67, 302119224788637, 138, 540, 0, 3, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (887755701, 906656645, 0, 302119224788637, 138, 669, 0, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (906678436, 924827913, 67, 302119224788637, 139, 540, 0, 4, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (906678867, 924827593, 0, 302119224788637, 139, 669, 0, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (924889832, 924923197, 67, 302119224788637, 140, 549, 0, 5, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (924890173, 924923126, 0, 302119224788637, 140, 672, 0, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1196025022, 1196060961, 67, 302119224788637, 156, 549, 0, 12, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1196025543, 1196060811, 0, 302119224788637, 156, 672, 0, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1449144833, 1449175813, 67, 302119224788637, 172, 549, 0, 19, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1449145084, 1449175693, 0, 302119224788637, 172, 672, 0, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1696242840, 1696274711, 67, 302119224788637, 188, 549, 0, 26, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1696243200, 1696274561, 0, 302119224788637, 188, 672, 0, NULL, NULL);
CREATE TABLE NVTX_EVENTS (
    start                       INTEGER   NOT NULL,                    -- Event start timestamp (ns).
    end                         INTEGER,                               -- Event end timestamp (ns).
    eventType                   INTEGER   NOT NULL,                    -- NVTX event type enum value. See docs for specifics.
    rangeId                     INTEGER,                               -- Correlation ID returned from a nvtxRangeStart call.
    category                    INTEGER,                               -- User-controlled ID that can be used to group events.
    color                       INTEGER,                               -- Encoded ARGB color value.
    text                        TEXT,                                  -- Optional text message for non registered strings.
    globalTid                   INTEGER,                               -- Serialized GlobalId.
    endGlobalTid                INTEGER,                               -- Serialized GlobalId. See docs for specifics.
    textId                      INTEGER   REFERENCES StringIds(id),    -- StringId of the NVTX domain registered string.
    domainId                    INTEGER,                               -- User-controlled ID that can be used to group events.
    uint64Value                 INTEGER,                               -- One of possible payload value union members.
    int64Value                  INTEGER,                               -- One of possible payload value union members.
    doubleValue                 REAL,                                  -- One of possible payload value union members.
    uint32Value                 INTEGER,                               -- One of possible payload value union members.
    int32Value                  INTEGER,                               -- One of possible payload value union members.
    floatValue                  REAL,                                  -- One of possible payload value union members.
    jsonTextId                  INTEGER,                               -- One of possible payload value union members.
    jsonText                    TEXT                                   -- One of possible payload value union members.
);
INSERT INTO NVTX_EVENTS VALUES (65117824, 710796807, 59, NULL, NULL, NULL, NULL, 302119224788637, NULL, 59, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO NVTX_EVENTS VALUES (837497679, 851453601, 59, NULL, NULL, NULL, NULL, 302119224788637, NULL, 85, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO NVTX_EVENTS VALUES (851454373, 884983803, 59, NULL, NULL, NULL, NULL, 302119224788637, NULL, 85, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO NVTX_EVENTS VALUES (924881857, 924940911, 59, NULL, NULL, NULL, 'saxpy', 302119224788637, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);
INSERT INTO StringIds VALUES (59, 'MPI_Init');
INSERT INTO StringIds VALUES (85, 'MPI_Send');
INSERT INTO StringIds VALUES (540, 'cudaMemcpy');
INSERT INTO StringIds VALUES (549, 'cudaLaunchKernel');
INSERT INTO StringIds VALUES (642, '_Z5saxpyPdS_S_di');
INSERT INTO StringIds VALUES (669, 'cudaMemcpy_v3020');
INSERT INTO StringIds VALUES (670, 'saxpy(double *, double *, double *, double, int)');
INSERT INTO StringIds VALUES (671, 'saxpy');
INSERT INTO StringIds VALUES (672, 'cudaLaunchKernel_v7000');
