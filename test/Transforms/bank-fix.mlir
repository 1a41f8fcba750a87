// RUN: memopt-opt %s --split-input-file --memopt-bank-fix=mode=pad | FileCheck %s --check-prefix=PAD
// RUN: memopt-opt %s --split-input-file --memopt-bank-fix=mode=swizzle | FileCheck %s --check-prefix=SWZ
// RUN: memopt-opt %s --split-input-file --memopt-bank-fix | FileCheck %s --check-prefix=AUTO
// RUN: memopt-opt %s --split-input-file --memopt-bank-fix=mode=swizzle | memopt-opt --test-memopt-print-access-patterns 2>&1 | FileCheck %s --check-prefix=MODEL

// A hand-written transpose through a workgroup attribution of 4-byte
// elements, read by column: 32-way. pad -> 32x33; swizzle -> c ^ (r mod 32)
// on every access; auto takes the padding.
gpu.module @m {
  gpu.func @transpose_f32(%a: memref<1024x1024xf32>, %o: memref<1024x1024xf32>)
      workgroup(%tile : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 32, 1>} {
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %c32 = arith.constant 32 : index
    %r0 = arith.muli %by, %c32 : index
    %c0 = arith.muli %bx, %c32 : index
    %r = arith.addi %r0, %ty : index
    %c = arith.addi %c0, %tx : index
    %v = memref.load %a[%r, %c] : memref<1024x1024xf32>
    memref.store %v, %tile[%ty, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %tile[%tx, %ty] : memref<32x32xf32, #gpu.address_space<workgroup>>
    %orow = arith.addi %c0, %ty : index
    %ocol = arith.addi %r0, %tx : index
    memref.store %w, %o[%orow, %ocol] : memref<1024x1024xf32>
    gpu.return
  }
}
// PAD-LABEL: gpu.func @transpose_f32
// PAD-SAME:    workgroup(%{{.*}} : memref<32x33xf32, #gpu.address_space<workgroup>>)
// PAD:         memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x33xf32
// PAD:         memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x33xf32
// SWZ-LABEL: gpu.func @transpose_f32
// SWZ-SAME:    workgroup(%{{.*}} : memref<32x32xf32, #gpu.address_space<workgroup>>)
// SWZ:         %[[R1:.*]] = arith.remui %[[TY:.*]], %c32
// SWZ:         %[[C1:.*]] = arith.xori %[[TX:.*]], %[[R1]] : index
// SWZ:         memref.store %{{.*}}, %{{.*}}[%[[TY]], %[[C1]]]
// SWZ:         %[[R2:.*]] = arith.remui %[[TX]], %c32
// SWZ:         %[[C2:.*]] = arith.xori %[[TY]], %[[R2]] : index
// SWZ:         memref.load %{{.*}}[%[[TX]], %[[C2]]]
// AUTO-LABEL: gpu.func @transpose_f32
// AUTO-SAME:    memref<32x33xf32, #gpu.address_space<workgroup>>
// MODEL-NOT: bank conflict

// -----

// 8-byte elements in a memref.alloca: a column of f64 is 16-way per
// half-warp. pad -> one element; swizzle -> c ^ (r mod 16).
gpu.module @m {
  gpu.func @column_f64(%o: memref<32x16xf64>) kernel
      attributes {known_block_size = array<i32: 16, 32, 1>} {
    %t = memref.alloca() : memref<32x16xf64, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %one = arith.constant 1.0 : f64
    memref.store %one, %t[%ty, %tx] : memref<32x16xf64, #gpu.address_space<workgroup>>
    gpu.barrier
    %x = memref.load %t[%ty, %tx] : memref<32x16xf64, #gpu.address_space<workgroup>>
    %y = memref.load %t[%tx, %ty] : memref<32x16xf64, #gpu.address_space<workgroup>>
    %s = arith.addf %x, %y : f64
    memref.store %s, %o[%ty, %tx] : memref<32x16xf64>
    gpu.return
  }
}
// PAD-LABEL: gpu.func @column_f64
// PAD:         memref.alloca() : memref<32x17xf64, #gpu.address_space<workgroup>>
// SWZ-LABEL: gpu.func @column_f64
// SWZ:         memref.alloca() : memref<32x16xf64, #gpu.address_space<workgroup>>
// SWZ:         arith.remui %{{.*}}, %c16
// SWZ:         arith.xori
// AUTO-LABEL: gpu.func @column_f64
// AUTO:        memref<32x17xf64
// MODEL-NOT: bank conflict

// -----

// 16-byte vector accesses to a workgroup global: a column of float4 chunks
// is 8-way per quarter-warp. pad -> one float4 (132 floats per row);
// swizzle -> chunk ^ (r mod 8), chunks of 4 floats stay whole.
gpu.module @m {
  memref.global "private" @tile : memref<32x128xf32, #gpu.address_space<workgroup>>
  gpu.func @column_v4(%o: memref<32x4xf32>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = memref.get_global @tile : memref<32x128xf32, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %col = arith.muli %tx, %c4 : index
    %v0 = arith.constant dense<1.0> : vector<4xf32>
    vector.store %v0, %t[%c0, %col] : memref<32x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    %v = vector.load %t[%tx, %c0] : memref<32x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    vector.store %v, %o[%tx, %c0] : memref<32x4xf32>, vector<4xf32>
    gpu.return
  }
}
// PAD-LABEL: gpu.module @m
// PAD:         memref.global "private" @tile : memref<32x132xf32, #gpu.address_space<workgroup>>
// PAD:         memref.get_global @tile : memref<32x132xf32, #gpu.address_space<workgroup>>
// SWZ-LABEL: gpu.module @m
// SWZ:         memref.global "private" @tile : memref<32x128xf32
// SWZ:         arith.divui %{{.*}}, %c4
// SWZ:         arith.remui %{{.*}}, %c8
// SWZ:         arith.xori
// SWZ:         vector.load
// AUTO:        memref.global "private" @tile : memref<32x132xf32
// MODEL-NOT: bank conflict

// -----

// Conflict-free buffers are left alone.
gpu.module @m {
  gpu.func @rows(%o: memref<32x32xf32>)
      workgroup(%tile : memref<32x32xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 32, 1>} {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %x = memref.load %tile[%ty, %tx] : memref<32x32xf32, #gpu.address_space<workgroup>>
    memref.store %x, %o[%ty, %tx] : memref<32x32xf32>
    gpu.return
  }
}
// PAD-LABEL: gpu.func @rows
// PAD-SAME:    memref<32x32xf32, #gpu.address_space<workgroup>>
// SWZ-LABEL: gpu.func @rows
// SWZ-NOT:     arith.xori
