// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target{chip=sm_80})" | FileCheck %s

// The known chip's description is attached to the module.
// CHECK: module attributes {memopt.target = #memopt.target<chip = "sm_80", multiprocessors = 108, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 167936, shared_memory_per_block = 49152, max_shared_memory_per_block = 166912, l2_bytes = 41943040, portable_cluster_size = 1, max_cluster_size = 1, vector_bytes = 16>}
module {
}

// -----

// A target already there (pinned by a user) is kept.
// CHECK: module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 7,
module attributes {memopt.target = #memopt.target<chip = "sm_90", multiprocessors = 7, warp_size = 32, max_threads_per_block = 1024, registers_per_multiprocessor = 65536, shared_memory_per_multiprocessor = 233472, shared_memory_per_block = 49152, max_shared_memory_per_block = 232448, l2_bytes = 52428800, portable_cluster_size = 8, max_cluster_size = 16, vector_bytes = 16>} {
}
