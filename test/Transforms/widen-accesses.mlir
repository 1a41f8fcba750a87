// RUN: memopt-opt %s --split-input-file --memopt-widen-accesses | FileCheck %s

// Four consecutive f32 loads and stores per thread at 16-byte multiples:
// one 16-byte vector load and store each.
gpu.module @m {
  gpu.func @f32x4(%a: memref<4096xf32>, %o: memref<4096xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %c256 = arith.constant 256 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %t0 = arith.muli %bx, %c256 : index
    %t = arith.addi %t0, %tx : index
    %i = arith.muli %t, %c4 : index
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %i3 = arith.addi %i, %c3 : index
    %x0 = memref.load %a[%i] : memref<4096xf32>
    %x1 = memref.load %a[%i1] : memref<4096xf32>
    %x2 = memref.load %a[%i2] : memref<4096xf32>
    %x3 = memref.load %a[%i3] : memref<4096xf32>
    %y0 = arith.mulf %x0, %x0 : f32
    %y1 = arith.mulf %x1, %x1 : f32
    %y2 = arith.mulf %x2, %x2 : f32
    %y3 = arith.mulf %x3, %x3 : f32
    memref.store %y0, %o[%i] : memref<4096xf32>
    memref.store %y1, %o[%i1] : memref<4096xf32>
    memref.store %y2, %o[%i2] : memref<4096xf32>
    memref.store %y3, %o[%i3] : memref<4096xf32>
    gpu.return
  }
}
// CHECK-LABEL: gpu.func @f32x4
// CHECK:         %[[I:.*]] = arith.muli %{{.*}}, %c4 : index
// CHECK:         %[[V:.*]] = vector.load %{{.*}}[%[[I]]] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK-COUNT-4: vector.extract %[[V]]
// CHECK-NOT:     memref.load
// CHECK:         %[[S:.*]] = vector.from_elements
// CHECK:         vector.store %[[S]], %{{.*}}[%[[I]]] {alignment = 16 : i64}
// CHECK-NOT:     memref.store

// -----

// Rows of a 2-D f16 buffer: 8 halves (16 bytes) from column 8 * tid; the
// row index is uniform.
gpu.module @m {
  gpu.func @f16x8(%a: memref<64x2048xf16>, %o: memref<64x2048xf16>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %r = gpu.block_id x
    %tx = gpu.thread_id x
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %j = arith.muli %tx, %c8 : index
    %j1 = arith.addi %j, %c1 : index
    %j2 = arith.addi %j, %c2 : index
    %j3 = arith.addi %j, %c3 : index
    %j4 = arith.addi %j, %c4 : index
    %j5 = arith.addi %j, %c5 : index
    %j6 = arith.addi %j, %c6 : index
    %j7 = arith.addi %j, %c7 : index
    %x0 = memref.load %a[%r, %j] : memref<64x2048xf16>
    %x1 = memref.load %a[%r, %j1] : memref<64x2048xf16>
    %x2 = memref.load %a[%r, %j2] : memref<64x2048xf16>
    %x3 = memref.load %a[%r, %j3] : memref<64x2048xf16>
    %x4 = memref.load %a[%r, %j4] : memref<64x2048xf16>
    %x5 = memref.load %a[%r, %j5] : memref<64x2048xf16>
    %x6 = memref.load %a[%r, %j6] : memref<64x2048xf16>
    %x7 = memref.load %a[%r, %j7] : memref<64x2048xf16>
    %s0 = arith.addf %x0, %x1 : f16
    %s1 = arith.addf %x2, %x3 : f16
    %s2 = arith.addf %x4, %x5 : f16
    %s3 = arith.addf %x6, %x7 : f16
    memref.store %s0, %o[%r, %j] : memref<64x2048xf16>
    memref.store %s1, %o[%r, %j1] : memref<64x2048xf16>
    memref.store %s2, %o[%r, %j2] : memref<64x2048xf16>
    memref.store %s3, %o[%r, %j3] : memref<64x2048xf16>
    gpu.return
  }
}
// CHECK-LABEL: gpu.func @f16x8
// CHECK:         vector.load %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x2048xf16>, vector<8xf16>
// CHECK-NOT:     memref.load
// CHECK:         vector.store %{{.*}} {alignment = 8 : i64} : memref<64x2048xf16>, vector<4xf16>

// -----

// Only 8-byte alignment is proven (i = 2 * tid): four loads become two
// 8-byte vector loads.
gpu.module @m {
  gpu.func @i32x2(%a: memref<4096xi32>, %o: memref<2048xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %i = arith.muli %tx, %c2 : index
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %i3 = arith.addi %i, %c3 : index
    %x0 = memref.load %a[%i] : memref<4096xi32>
    %x1 = memref.load %a[%i1] : memref<4096xi32>
    %x2 = memref.load %a[%i2] : memref<4096xi32>
    %x3 = memref.load %a[%i3] : memref<4096xi32>
    %s0 = arith.addi %x0, %x1 : i32
    %s1 = arith.addi %x2, %x3 : i32
    %s = arith.addi %s0, %s1 : i32
    memref.store %s, %o[%tx] : memref<2048xi32>
    gpu.return
  }
}
// CHECK-LABEL: gpu.func @i32x2
// CHECK:         vector.load %{{.*}} {alignment = 8 : i64} : memref<4096xi32>, vector<2xi32>
// CHECK:         vector.load %{{.*}} {alignment = 8 : i64} : memref<4096xi32>, vector<2xi32>
// CHECK-NOT:     memref.load %{{.*}} : memref<4096xi32>

// -----

// A store to the same buffer between the loads: they stay scalar. A load
// between the stores: they stay scalar.
gpu.module @m {
  gpu.func @blocked(%a: memref<4096xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %i = arith.muli %tx, %c4 : index
    %i1 = arith.addi %i, %c1 : index
    %x0 = memref.load %a[%i] : memref<4096xf32>
    memref.store %x0, %a[%i1] : memref<4096xf32>
    %x1 = memref.load %a[%i1] : memref<4096xf32>
    memref.store %x1, %a[%i] : memref<4096xf32>
    gpu.return
  }
}
// CHECK-LABEL: gpu.func @blocked
// CHECK-NOT:     vector.
// CHECK:         gpu.return
