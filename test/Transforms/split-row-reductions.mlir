// memopt-split-row-reductions: reductions of fewer rows than the target has
// multiprocessors become two reductions over row segments.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target,func.func(memopt-split-row-reductions))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target,func.func(memopt-split-row-reductions))" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// A smaller target: 8 multiprocessors want 64 segments in all.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target,func.func(memopt-split-row-reductions{multiprocessors=8}))" 2>&1 >/dev/null | FileCheck %s --check-prefix=SMALL

// A sum over a whole tensor: 8 segments per multiprocessor (1056) are
// wanted, 1024 of 8192 elements (the largest divisor within 1056 whose
// segments keep 4096 elements). Stage 1 reads x as [1024, 8192] into a partial
// seeded with 0; stage 2 combines the partial into the output, after its
// fill.
// REMARK: remark: row reduction split: 1 row of 8388608 elements as 1024 segments of 8192 each (a partial of 1024 values, combined in segment order by a second reduction): 1 row alone cannot give every multiprocessor a block
// SMALL: remark: row reduction split: 1 row of 8388608 elements as 64 segments of 131072 each
// CHECK-LABEL: func.func @full_sum
// CHECK-SAME:    (%[[X:.+]]: memref<8388608xf32>, %[[OUT:.+]]: memref<f32>)
// CHECK:         %[[XS:.+]] = memref.expand_shape %[[X]] {{\[\[}}0, 1]] output_shape [1024, 8192] : memref<8388608xf32> into memref<1024x8192xf32>
// CHECK:         %[[P:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%[[P]] : memref<1024xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID2:.+]], #[[ROW:.+]]], iterator_types = ["parallel", "reduction"]} ins(%[[XS]] : memref<1024x8192xf32>) outs(%[[P]] : memref<1024xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%[[OUT]] : memref<f32>)
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["reduction"]} ins(%[[P]] : memref<1024xf32>) outs(%[[OUT]] : memref<f32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[IN]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[S]]
// CHECK-NOT:     linalg.generic
func.func @full_sum(%x: memref<8388608xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%zero : f32) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<8388608xf32>) outs(%out : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A sum and a max of |x| over 16 bf16 rows of 1048576 (f32 accumulators),
// the rows behind a batch loop of 2: 66 segments per row wanted, 64 of
// 16384. Both first stages come before both second stages, one after the
// other (one row group reads x once); the max's partial is seeded with
// -inf; a weight read per row (w[b, h]) is not expanded.
// REMARK: remark: row reduction split: 16 rows of 1048576 elements as 64 segments of 16384 each (a partial of 1024 values
// REMARK: remark: row reduction split: 16 rows of 1048576 elements as 64 segments of 16384 each (a partial of 1024 values
// CHECK-LABEL: func.func @two_stats
// CHECK:         memref.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [2, 8, 64, 16384] : memref<2x8x1048576xbf16> into memref<2x8x64x16384xbf16>
// CHECK:         %[[PS:.+]] = memref.alloc() {{.*}} : memref<2x8x64xf32>
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : memref<2x8x64x16384xbf16>, memref<2x8xf32>) outs(%[[PS]] : memref<2x8x64xf32>)
// CHECK:         %[[PM:.+]] = memref.alloc() {{.*}} : memref<2x8x64xf32>
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}} : memref<2x8x64x16384xbf16>) outs(%[[PM]] : memref<2x8x64xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[PS]] : memref<2x8x64xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[PM]] : memref<2x8x64xf32>)
// CHECK:           arith.maximumf
#x3 = affine_map<(b, h, c) -> (b, h, c)>
#bh = affine_map<(b, h, c) -> (b, h)>
func.func @two_stats(%x: memref<2x8x1048576xbf16>, %w: memref<2x8xf32>, %sum: memref<2x8xf32>, %max: memref<2x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#x3, #bh, #bh], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2x8x1048576xbf16>, memref<2x8xf32>) outs(%sum : memref<2x8xf32>) {
  ^bb0(%a: bf16, %wv: f32, %acc: f32):
    %v = arith.extf %a : bf16 to f32
    %p = arith.mulf %v, %wv : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#x3, #bh], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x8x1048576xbf16>) outs(%max : memref<2x8xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %v = arith.extf %a : bf16 to f32
    %m = math.absf %v : f32
    %s = arith.maximumf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not split, with the reason: the sum of squares is read back over the
// rows (RMSNorm: the row kernel keeps the row for the normalization); an
// input computed in the function (its producer would be written out); a
// row length (a prime) with no divisor giving segments of 1024 or more.
// Rows enough (132 rows of 65536) are the row family's, without a remark.
// REMARK: remark: row reduction with 2 rows of 262144 elements not split (its result is read back over the rows (a normalization)): its rows alone cannot give every multiprocessor a block
// REMARK: remark: row reduction with 2 rows of 262144 elements not split (it reads a buffer computed in the function (its producer would no longer fuse with it)): its rows alone cannot give every multiprocessor a block
// REMARK: remark: row reduction with 1 row of 1000003 elements not split (no divisor of the row length gives segments of 1024 elements or more): its rows alone cannot give every multiprocessor a block
// REMARK-NOT: remark
// CHECK-LABEL: func.func @not_split
// CHECK-NOT:     memref.expand_shape
#id = affine_map<(r, c) -> (r, c)>
#row = affine_map<(r, c) -> (r)>
func.func @not_split(%x: memref<2x262144xf32>, %y: memref<2x262144xf32>, %t: memref<2x262144xf32>, %p: memref<1000003xf32>, %many: memref<132x65536xf32>,
                     %ssq: memref<2xf32>, %s2: memref<2xf32>, %s3: memref<f32>, %s4: memref<132xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<2x262144xf32>) outs(%ssq : memref<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ssq : memref<2x262144xf32>, memref<2xf32>) outs(%y : memref<2x262144xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %v = arith.mulf %a, %r : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x262144xf32>) outs(%t : memref<2x262144xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : memref<2x262144xf32>) outs(%s2 : memref<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%p : memref<1000003xf32>) outs(%s3 : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%many : memref<132x65536xf32>) outs(%s4 : memref<132xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 97 rows of 61 x 1409 (collapsed: 85949, no divisor within 11 segments of
// 4096 elements or more): 97 segments of a row each would leave 35
// multiprocessors idle, so shorter segments are taken, the fewest that
// give every multiprocessor one: 61 of 1409 (5917 rows). 3 rows of
// 37 x 1409 cannot reach 132 segments: the most there are of 1024 or more
// (37 of 1409). 2 rows of 2062, shorter than two segments of 4096, stay
// the row family's, without a remark.
// REMARK: remark: row reduction split: 97 rows of 85949 elements as 61 segments of 1409 each (a partial of 5917 values
// REMARK: remark: row reduction split: 3 rows of 52133 elements as 37 segments of 1409 each (a partial of 111 values
// REMARK-NOT: remark
// CHECK-LABEL: func.func @short_segments
// CHECK:         memref.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [97, 61, 1409] : memref<97x85949xf32> into memref<97x61x1409xf32>
// CHECK:         memref.alloc() {{.*}} : memref<97x61xf32>
// CHECK:         memref.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [3, 37, 1409] : memref<3x52133xbf16> into memref<3x37x1409xbf16>
// CHECK:         memref.alloc() {{.*}} : memref<3x37xf32>
#id = affine_map<(r, c) -> (r, c)>
#row = affine_map<(r, c) -> (r)>
func.func @short_segments(%x: memref<97x85949xf32>, %y: memref<3x52133xbf16>, %z: memref<2x2062xf32>,
                          %s: memref<97xf32>, %t: memref<3xf32>, %u: memref<2xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<97x85949xf32>) outs(%s : memref<97xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<3x52133xbf16>) outs(%t : memref<3xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %e = arith.extf %a : bf16 to f32
    %v = arith.maximumf %acc, %e : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : memref<2x2062xf32>) outs(%u : memref<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  }
  return
}

// -----

// x / sum(x * x) over a whole tensor of 4M f32: its one row is too long for
// a cluster's registers (16 x 1024 x 32 elements), so the row family would
// stream it through one block twice; the statistic is split instead and
// the read-back is a pass of its own (a remark says so). 2 rows of 262144
// (above) fit a cluster and stay.
// REMARK: remark: row reduction split: 1 row of 4194304 elements as 1024 segments of 4096 each (a partial of 1024 values, combined in segment order by a second reduction): 1 row alone cannot give every multiprocessor a block; the rows it is read back over are too long for a cluster's registers, so that read-back is a second pass over the input
// CHECK-LABEL: func.func @whole_tensor_normalization
// CHECK:         memref.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1024, 4096]
#all = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
func.func @whole_tensor_normalization(%x: memref<4194304xf32>, %y: memref<4194304xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id1, #all], iterator_types = ["reduction"]}
      ins(%x : memref<4194304xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %q = arith.mulf %a, %a : f32
    %v = arith.addf %acc, %q : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id1, #all, #id1], iterator_types = ["parallel"]}
      ins(%x, %s : memref<4194304xf32>, memref<f32>) outs(%y : memref<4194304xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %v = arith.divf %a, %t : f32
    linalg.yield %v : f32
  }
  return
}

// -----

// Cross entropy over dense targets: sum(exp(x - max)) reads the maximum,
// a buffer the function computes, so it stays whole; sum(x * t) reads x
// along the same 32 rows of 32000 and stays whole beside it (split, it would
// read x again in a grid of its own). sum(u * u) shares nothing with them
// and is split.
// REMARK: remark: row reduction with 32 rows of 32000 elements not split (it reads a buffer computed in the function
// REMARK: remark: row reduction with 32 rows of 32000 elements not split: it reads argument 0 along its rows, as a reduction over the same rows that is not split does (one row kernel reads it once)
// REMARK: note: that reduction
// REMARK: remark: row reduction split: 32 rows of 32000 elements as 5 segments of 6400 each
// REMARK-NOT: remark: row reduction split
// CHECK-LABEL: func.func @cross_entropy_siblings
// CHECK-SAME:    (%[[X:.+]]: memref<32x32000xf32>, %[[T:.+]]: memref<32x32000xf32>, %[[U:.+]]: memref<32x32000xf32>,
// CHECK-NOT:     memref.expand_shape %[[X]]
// CHECK-NOT:     memref.expand_shape %[[T]]
// CHECK:         memref.expand_shape %[[U]] {{\[\[}}0], [1, 2]] output_shape [32, 5, 6400]
// CHECK-NOT:     memref.expand_shape %[[X]]
// CHECK-NOT:     memref.expand_shape %[[T]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
func.func @cross_entropy_siblings(%x: memref<32x32000xf32>, %t: memref<32x32000xf32>, %u: memref<32x32000xf32>,
                                  %mx: memref<32xf32>, %se: memref<32xf32>, %dot: memref<32xf32>, %sq: memref<32xf32>) {
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<32x32000xf32>) outs(%mx : memref<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.maximumf %a, %acc : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : memref<32x32000xf32>, memref<32xf32>) outs(%se : memref<32xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %v = arith.addf %e, %acc : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %t : memref<32x32000xf32>, memref<32x32000xf32>) outs(%dot : memref<32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %v = arith.addf %p, %acc : f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%u : memref<32x32000xf32>) outs(%sq : memref<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %v = arith.addf %p, %acc : f32
    linalg.yield %v : f32
  }
  return
}
