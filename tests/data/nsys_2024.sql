-- nsight_systems/pipit_cloverleaf_perlmutter/perlmutter-cloverleaf-cuda.sqlite (tests/data/sqlite-excerpts.py)
CREATE TABLE TARGET_INFO_SESSION_START_TIME (
    utcEpochNs                  INTEGER,                               -- UTC Epoch timestamp at start of the capture (ns).
    utcTime                     TEXT,                                  -- Start of the capture in UTC.
    localTime                   TEXT                                   -- Start of the capture in local time of target.
);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1696392839587175550, '2023-10-04T04:13:59', '2023-10-03T21:13:59');
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
INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 0, 'NVIDIA A100-SXM4-80GB', '0000:c1:00.0', 1, 41943040, 84990623744, 2039040000000, 1410000000, 108, 0, 'cf6b97c0-bf53-a39e-febd-9532190b5766', 0, 'GA100', 3, '', '', 161, 0, 65536, 4, 65536, 49152, 166912, 167936, 65536, 32, 5, 64, 32, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 8, 0, 8, 2);
INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 3, 'NVIDIA A100-SXM4-80GB', '0000:03:00.0', 1, 41943040, 84990623744, 2039040000000, 1410000000, 108, 3, 'b17c6502-716a-c2c7-0f65-854136d5f79f', 0, 'GA100', 0, '', '', 161, 0, 65536, 4, 65536, 49152, 166912, 167936, 65536, 32, 5, 64, 32, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 8, 0, 8, 2);
INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 2, 'NVIDIA A100-SXM4-80GB', '0000:41:00.0', 1, 41943040, 84990623744, 2039040000000, 1410000000, 108, 2, '641905db-f58d-198a-e9ff-e182562c85c8', 0, 'GA100', 1, '', '', 161, 0, 65536, 4, 65536, 49152, 166912, 167936, 65536, 32, 5, 64, 32, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 8, 0, 8, 2);
INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, 1, 'NVIDIA A100-SXM4-80GB', '0000:82:00.0', 1, 41943040, 84990623744, 2039040000000, 1410000000, 108, 1, 'a8048110-bc1c-8841-a5b8-374a91aae1ef', 0, 'GA100', 2, '', '', 161, 0, 65536, 4, 65536, 49152, 166912, 167936, 65536, 32, 5, 64, 32, 1024, 1024, 1024, 64, 2147483647, 65535, 65535, 8, 0, 8, 2);
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
    sharedMemoryLimitConfig     INTEGER                                -- REFERENCES ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG(id)
);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (533338240, 534705884, 0, 1, NULL, 7, 452, 310028053512192, 1082, 1083, 1054, 1, 1, 32, 115426, 1, 1, 256, 1, 1, 0, 0, 0, 127401984, 1, 32768, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (534720380, 535738713, 0, 1, NULL, 7, 454, 310028053512192, 1086, 1083, 1055, 1, 1, 32, 115381, 1, 1, 256, 1, 1, 0, 0, 0, 127401984, 2, 32768, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (535748185, 536182360, 0, 1, NULL, 7, 456, 310028053512192, 1089, 1083, 1057, 1, 1, 18, 115381, 1, 1, 256, 1, 1, 0, 0, 0, 127401984, 3, 32768, NULL, 0);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (536191064, 536564247, 0, 1, NULL, 7, 458, 310028053512192, 1095, 1083, 1058, 1, 1, 18, 115411, 1, 1, 256, 1, 1, 0, 0, 0, 127401984, 4, 32768, NULL, 0);
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
    virtualAddress              INTEGER                                -- Virtual base address of the page/s being transferred.
);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (537713204, 537715028, 0, 1, NULL, 7, 479, 310028053512192, 16, 1, NULL, 0, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (537724276, 537725684, 0, 1, NULL, 7, 481, 310028053512192, 16, 1, NULL, 0, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
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
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (533303007, 533337262, 0, 310028055214088, 452, 1084, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (534711951, 534719065, 0, 310028055214088, 454, 1084, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (535742016, 535746435, 0, 310028055214088, 456, 1084, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (536185141, 536189238, 0, 310028055214088, 458, 1084, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (537696413, 537712854, 0, 310028055214088, 479, 1126, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (537717243, 537722553, 0, 310028055214088, 481, 1126, 0, NULL);
CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.

    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value.
    value                       TEXT      NOT NULL                     -- String value.
);
INSERT INTO StringIds VALUES (1054, '_ZN6clover19par_ranged2d_kernelIZ11build_fieldR16global_variablesEUliiE_EEvNS_7Range2dET_');
INSERT INTO StringIds VALUES (1055, '_ZN6clover19par_ranged2d_kernelIZ11build_fieldR16global_variablesEUliiE0_EEvNS_7Range2dET_');
INSERT INTO StringIds VALUES (1057, '_ZN6clover19par_ranged2d_kernelIZ11build_fieldR16global_variablesEUliiE1_EEvNS_7Range2dET_');
INSERT INTO StringIds VALUES (1058, '_ZN6clover19par_ranged2d_kernelIZ11build_fieldR16global_variablesEUliiE2_EEvNS_7Range2dET_');
INSERT INTO StringIds VALUES (1082, 'void clover::par_ranged2d_kernel<build_field(global_variables &)::[lambda(int, int) (instance 1)]>(clover::Range2d, T1)');
INSERT INTO StringIds VALUES (1083, 'par_ranged2d_kernel');
INSERT INTO StringIds VALUES (1084, 'cudaLaunchKernel_v7000');
INSERT INTO StringIds VALUES (1086, 'void clover::par_ranged2d_kernel<build_field(global_variables &)::[lambda(int, int) (instance 2)]>(clover::Range2d, T1)');
INSERT INTO StringIds VALUES (1089, 'void clover::par_ranged2d_kernel<build_field(global_variables &)::[lambda(int, int) (instance 3)]>(clover::Range2d, T1)');
INSERT INTO StringIds VALUES (1095, 'void clover::par_ranged2d_kernel<build_field(global_variables &)::[lambda(int, int) (instance 4)]>(clover::Range2d, T1)');
INSERT INTO StringIds VALUES (1126, 'cudaMemcpy_v3020');
