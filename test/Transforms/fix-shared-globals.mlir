// RUN: memopt-opt %s --pass-pipeline="builtin.module(gpu.module(memopt-fix-shared-globals))" | FileCheck %s

// The zero-sized global upstream creates for gpu.dynamic_shared_memory
// becomes external (NVPTX then declares `.extern .shared ... []` instead of
// demoting it to a one-byte static variable); every shared global gets
// 16-byte alignment; other address spaces are left alone.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK:         llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK:         llvm.mlir.global internal @table() {addr_space = 1 : i32, alignment = 4 : i64} : !llvm.array<4 x f32>
gpu.module @kernels {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<64 x f32>
  llvm.mlir.global internal @table() {addr_space = 1 : i32, alignment = 4 : i64} : !llvm.array<4 x f32>
}
