// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-mark-readonly-args)" | FileCheck %s

// Kernel buffer arguments that are only loaded and never alias another
// argument get llvm.noalias + llvm.readonly. The aliasing remark is checked in
// mark-readonly-args-remarks.mlir.

// The input is only loaded: marked. The output is stored to: not marked; the
// scalar is not a memref: not marked.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @scale(
// CHECK-SAME:      %{{.+}}: memref<64xf32> {llvm.noalias, llvm.readonly},
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<64xf32>,
// CHECK-SAME:      %{{[a-z0-9_]+}}: f32) kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%in: memref<64xf32>, %out: memref<64xf32>, %s: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<64xf32>
      %m = arith.mulf %v, %s : f32
      memref.store %m, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>, %b: memref<64xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>, %s : f32)
    return
  }
}

// -----

// Loads through a reshaping view and vector loads are still reads.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @vec(
// CHECK-SAME:      %{{.+}}: memref<64xf32> {llvm.noalias, llvm.readonly},
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<16x4xf32>) kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vec(%in: memref<64xf32>, %out: memref<16x4xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v2 = memref.expand_shape %in [[0, 1]] output_shape [16, 4] : memref<64xf32> into memref<16x4xf32>
      %v = vector.load %v2[%i, %c0] : memref<16x4xf32>, vector<4xf32>
      vector.store %v, %out[%i, %c0] : memref<16x4xf32>, vector<4xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>, %b: memref<16x4xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@vec blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<16x4xf32>)
    return
  }
}

// -----

// A write through a reshaping view of the argument is a write.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @store_through_view(
// CHECK-SAME:      %{{.+}}: memref<64xf32> {llvm.noalias, llvm.readonly},
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<64xf32>) kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @store_through_view(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %in[%i] : memref<64xf32>
      %o2 = memref.expand_shape %out [[0, 1]] output_shape [16, 4] : memref<64xf32> into memref<16x4xf32>
      memref.store %v, %o2[%c0, %i] : memref<16x4xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>, %b: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@store_through_view blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    return
  }
}

// -----

// Any use other than a load (here memref.dim) is assumed to be a write.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @unknown_use(
// CHECK-NOT:       llvm.readonly
// CHECK:           gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @unknown_use(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %n = memref.dim %in, %c0 : memref<?xf32>
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %out[%n] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<?xf32>, %b: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@unknown_use blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>)
    return
  }
}

// -----

// A kernel that is never launched is left alone: there is no launch to prove
// its arguments distinct.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @not_launched(
// CHECK-NOT:       llvm.readonly
// CHECK:           gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @not_launched(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<64xf32>
      memref.store %v, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// Two launches with distinct buffers: marked.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         gpu.func @copy(
// CHECK-SAME:      %{{.+}}: memref<64xf32> {llvm.noalias, llvm.readonly},
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<64xf32>) kernel
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<64xf32>
      memref.store %v, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%b : memref<64xf32>, %c : memref<64xf32>)
    return
  }
}

// -----

// Workgroup attributions follow the arguments in the entry block and are
// not arguments: an unused one (never stored to) gets no attribute and
// does not crash the pass.
// CHECK-LABEL: gpu.module @attributions
// CHECK:         gpu.func @copy(
// CHECK-SAME:      %{{.+}}: memref<64xf32> {llvm.noalias, llvm.readonly},
// CHECK-SAME:      %{{[a-z0-9_]+}}: memref<64xf32>) workgroup(%{{.+}} : memref<32xf32, #gpu.address_space<workgroup>>) kernel
module attributes {gpu.container_module} {
  gpu.module @attributions {
    gpu.func @copy(%in: memref<64xf32>, %out: memref<64xf32>) workgroup(%unused : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<64xf32>
      memref.store %v, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<64xf32>, %b: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @attributions::@copy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<64xf32>, %b : memref<64xf32>)
    return
  }
}
