// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-mark-readonly-args)" | FileCheck %s

// Read-only arguments that may alias another argument at some launch are left
// unmarked, with a remark.

// Both arguments are views of one allocation: reading through one while
// writing through the other must stay coherent.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @views_of_one_alloc(
// CHECK-NOT:       llvm.readonly
// CHECK:           gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @+1 {{argument 0 not marked read-only: another argument views the same buffer}}
    gpu.func @views_of_one_alloc(%in: memref<16x4xf32>, %out: memref<16x4xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %in[%i, %c0] : memref<16x4xf32>
      memref.store %v, %out[%i, %c0] : memref<16x4xf32>
      gpu.return
    }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %buf = memref.alloc() : memref<64xf32>
    %x = memref.expand_shape %buf [[0, 1]] output_shape [16, 4] : memref<64xf32> into memref<16x4xf32>
    %y = memref.expand_shape %buf [[0, 1]] output_shape [16, 4] : memref<64xf32> into memref<16x4xf32>
    gpu.launch_func @kernels::@views_of_one_alloc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%x : memref<16x4xf32>, %y : memref<16x4xf32>)
    memref.dealloc %buf : memref<64xf32>
    return
  }
}

// -----

// The same buffer passed twice: both read-only arguments get a remark.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @same_value_twice(
// CHECK-NOT:       llvm.readonly
// CHECK:           gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @+2 {{argument 0 not marked read-only: another argument views the same buffer}}
    // expected-remark @+1 {{argument 1 not marked read-only: another argument views the same buffer}}
    gpu.func @same_value_twice(%x: memref<64xf32>, %y: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xf32>
      %b = memref.load %y[%i] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>, %o: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@same_value_twice blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<64xf32>, %a : memref<64xf32>, %o : memref<64xf32>)
    return
  }
}

// -----

// Distinct at the first launch but aliased at the second: one aliasing launch
// is enough to leave the argument alone. The unaliased one is still marked.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @aliased_at_one_launch(
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<64xf32>,
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<64xf32> {llvm.noalias, llvm.readonly},
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<64xf32>) kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-remark @+1 {{argument 0 not marked read-only: another argument views the same buffer}}
    gpu.func @aliased_at_one_launch(%x: memref<64xf32>, %y: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xf32>
      %b = memref.load %y[%i] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>, %b: memref<64xf32>, %o: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@aliased_at_one_launch blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>, %o : memref<64xf32>)
    gpu.launch_func @kernels::@aliased_at_one_launch blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%o : memref<64xf32>, %b : memref<64xf32>, %o : memref<64xf32>)
    return
  }
}
