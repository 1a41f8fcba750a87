// The elementwise family's selection rules: the plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{block-size=128 vector-bytes=8}))" | FileCheck %s --check-prefix=KNOBS
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{elementwise-load-bytes=0}))" | FileCheck %s --check-prefix=LOADS
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy{elementwise-load-bytes=32}))" | FileCheck %s --check-prefix=LOADS32

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

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// bf16 widened to f32: a 16-byte store per chunk, but 8 bytes loaded, so
// each thread takes 2 chunks (16 bytes of loads in flight).
// CHECK-LABEL: func.func @widen_bf16
// CHECK: #memopt.elementwise<layout = rows, vector = 4, threads = 256, chunks = 2>
// LOADS-LABEL: func.func @widen_bf16
// LOADS: #memopt.elementwise<layout = rows, vector = 4, threads = 256>
func.func @widen_bf16(%x: memref<8192x4096xbf16>, %y: memref<8192x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8192x4096xbf16>) outs(%y : memref<8192x4096xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %r = arith.extf %a : bf16 to f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// i8 codes and a per-row scale to f32: 4 + 4 bytes a chunk (the scale
// counted once), 2 chunks; at 32 bytes a thread (LOADS) 4.
// CHECK-LABEL: func.func @dequant_i8
// CHECK: #memopt.elementwise<layout = rows, vector = 4, threads = 256, chunks = 2>
// LOADS-LABEL: func.func @dequant_i8
// LOADS: #memopt.elementwise<layout = rows, vector = 4, threads = 256>
// LOADS32-LABEL: func.func @dequant_i8
// LOADS32: #memopt.elementwise<layout = rows, vector = 4, threads = 256, chunks = 4>
func.func @dequant_i8(%q: memref<4096x4096xi8>, %s: memref<4096xf32>, %y: memref<4096x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%q, %s : memref<4096x4096xi8>, memref<4096xf32>) outs(%y : memref<4096x4096xf32>) {
  ^bb0(%a: i8, %c: f32, %o: f32):
    %f = arith.sitofp %a : i8 to f32
    %r = arith.mulf %f, %c : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// The same widening over too few chunks to keep every multiprocessor's
// threads busy at 2 per thread: one chunk per thread.
// CHECK-LABEL: func.func @widen_small
// CHECK: #memopt.elementwise<layout = rows, vector = 4, threads = 256>
func.func @widen_small(%x: memref<256x4096xbf16>, %y: memref<256x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<256x4096xbf16>) outs(%y : memref<256x4096xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %r = arith.extf %a : bf16 to f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// f32 in, f32 out: 16 bytes loaded per chunk already.
// CHECK-LABEL: func.func @add_f32
// CHECK: #memopt.elementwise<layout = rows, vector = 4, threads = 256>
func.func @add_f32(%x: memref<8192x4096xf32>, %z: memref<8192x4096xf32>, %y: memref<8192x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %z : memref<8192x4096xf32>, memref<8192x4096xf32>) outs(%y : memref<8192x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// bf16 widened to f32 (a result of its own), then scaled: the second op
// reads the widened values from registers, so a chunk loads 8 bytes: 2
// chunks.
// CHECK-LABEL: func.func @widen_then_scale
// CHECK: #memopt.elementwise<layout = rows, vector = 4, threads = 256, chunks = 2>
func.func @widen_then_scale(%x: memref<8192x4096xbf16>, %y: memref<8192x4096xf32>, %z: memref<8192x4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8192x4096xbf16>) outs(%y : memref<8192x4096xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %r = arith.extf %a : bf16 to f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%y : memref<8192x4096xf32>) outs(%z : memref<8192x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  }
  return
}
