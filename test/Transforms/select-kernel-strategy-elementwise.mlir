// The elementwise family's selection rules: the plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{block-size=128 vector-bytes=8}))" | FileCheck %s --check-prefix=KNOBS

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// Rows a multiple of the vector: 16-byte chunks in rows.
// CHECK-LABEL: func.func @aligned
// CHECK: #memopt.elementwise<layout = rows, vector = 4, threads = 256>
// KNOBS-LABEL: func.func @aligned
// KNOBS: #memopt.elementwise<layout = rows, vector = 2, threads = 128>
func.func @aligned(%x: memref<64x256xf32>, %b: memref<256xf32>, %y: memref<64x256xf32>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<64x256xf32>, memref<256xf32>) outs(%y : memref<64x256xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Odd rows, every buffer row-shaped: the space is one flat array.
// CHECK-LABEL: func.func @flat
// CHECK: #memopt.elementwise<layout = flat, vector = 4, threads = 256>
func.func @flat(%x: memref<7x333xf32>, %y: memref<7x333xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<7x333xf32>) outs(%y : memref<7x333xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// Odd rows and a bias broadcast along them: row chunks shifted to the
// buffers' alignment.
// CHECK-LABEL: func.func @shifted
// CHECK: #memopt.elementwise<layout = shifted_rows, vector = 4, threads = 256>
func.func @shifted(%x: memref<7x333xf32>, %b: memref<333xf32>, %y: memref<7x333xf32>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<7x333xf32>, memref<333xf32>) outs(%y : memref<7x333xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// f16 rows: 8 elements per 16-byte chunk.
// CHECK-LABEL: func.func @half
// CHECK: #memopt.elementwise<layout = rows, vector = 8, threads = 256>
func.func @half(%x: memref<16x1024xf16>, %y: memref<16x1024xf16>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<16x1024xf16>) outs(%y : memref<16x1024xf16>) {
  ^bb0(%a: f16, %o: f16):
    %r = arith.addf %a, %a : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// A gather along the row (one field of a record array) gains nothing from
// several lanes per thread: scalar chunks.
// CHECK-LABEL: func.func @gather
// CHECK: #memopt.elementwise<layout = rows, vector = 1, threads = 256>
func.func @gather(%x: memref<1024x4xf32>, %y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<1024x4xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  return
}
