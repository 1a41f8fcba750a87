// RUN: memopt-opt %s --split-input-file -verify-diagnostics --memopt-widen-accesses

// i = 4 * tid + 1: only 4-byte alignment is proven for the first load, it
// stays scalar; the next two (4 * tid + 2, 8-byte aligned) become one
// 8-byte load (checked in widen-accesses.mlir's style by the second RUN).
// RUN: memopt-opt %s --split-input-file --memopt-widen-accesses 2>/dev/null | FileCheck %s
// CHECK-LABEL: gpu.func @misaligned
// CHECK:         memref.load %{{.*}} : memref<4100xf32>
// CHECK-NEXT:    vector.load %{{.*}} {alignment = 8 : i64} : memref<4100xf32>, vector<2xf32>
// CHECK:         memref.load %{{.*}} : memref<4100xf32>
gpu.module @m {
  gpu.func @misaligned(%a: memref<4100xf32>, %o: memref<4100xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %i0 = arith.muli %tx, %c4 : index
    %i = arith.addi %i0, %c1 : index
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %i3 = arith.addi %i, %c3 : index
    // expected-remark @+2 {{consecutive loads not widened to 16 bytes: the first address is only proven a multiple of 4 bytes}}
    // expected-remark @+1 {{consecutive loads not widened to 8 bytes: the first address is only proven a multiple of 4 bytes}}
    %x0 = memref.load %a[%i] : memref<4100xf32>
    %x1 = memref.load %a[%i1] : memref<4100xf32>
    %x2 = memref.load %a[%i2] : memref<4100xf32>
    %x3 = memref.load %a[%i3] : memref<4100xf32>
    %s0 = arith.addf %x0, %x1 : f32
    %s1 = arith.addf %x2, %x3 : f32
    %s = arith.addf %s0, %s1 : f32
    memref.store %s, %o[%tx] : memref<4100xf32>
    gpu.return
  }
}

// -----

// An index loaded from memory: the model cannot prove anything.
gpu.module @m {
  gpu.func @gathered(%idx: memref<256xindex>, %a: memref<4096xf32>, %o: memref<256xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %j = memref.load %idx[%tx] : memref<256xindex>
    %j1 = arith.addi %j, %c1 : index
    // expected-remark @+1 {{consecutive loads not widened to 8 bytes: index loaded from memory}}
    %x0 = memref.load %a[%j] : memref<4096xf32>
    %x1 = memref.load %a[%j1] : memref<4096xf32>
    %s = arith.addf %x0, %x1 : f32
    memref.store %s, %o[%tx] : memref<256xf32>
    gpu.return
  }
}
