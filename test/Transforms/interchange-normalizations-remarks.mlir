// Remarks of memopt-interchange-normalizations (the rewrites are in
// interchange-normalizations.mlir): why a normalization over a
// non-innermost loop is not interchanged.
// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-interchange-normalizations))" -o /dev/null

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#v = affine_map<(d0) -> (d0)>

// x / sum(x) over dim 0 of 300 x 64: interchanged.
func.func @fits(%x: memref<300x64xf32>, %y: memref<300x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#sc, #v], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-remark @below {{normalization over loop 0 (300 elements) interchanged: its 3 ops iterate with that loop innermost, over rows of the contiguous dim side by side}}
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<300x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<300x64xf32>, memref<64xf32>) outs(%y : memref<300x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.divf %in, %m : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %s : memref<64xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#v = affine_map<(d0) -> (d0)>

// 7 columns: one group of 8 rows side by side, its last slot empty.
func.func @narrow(%x: memref<300x7xf32>, %y: memref<300x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<7xf32>
  linalg.generic {indexing_maps = [#sc, #v], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-remark @below {{normalization over loop 0 (300 elements) interchanged: its 3 ops iterate with that loop innermost, over rows of the contiguous dim side by side}}
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<300x7xf32>) outs(%s : memref<7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<300x7xf32>, memref<7xf32>) outs(%y : memref<300x7xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.divf %in, %m : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %s : memref<7xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#v = affine_map<(d0) -> (d0)>

// Columns of 20000: more than 16 blocks of registers hold.
func.func @long(%x: memref<20000x64xf32>, %y: memref<20000x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#sc, #v], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  // expected-remark @below {{normalization over loop 0 not interchanged (a row of 20000 elements does not fit in the registers of a cluster of 16 blocks): each of its reductions reads the input again}}
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<20000x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<20000x64xf32>, memref<64xf32>) outs(%y : memref<20000x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.divf %in, %m : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %s : memref<64xf32>
  return
}
