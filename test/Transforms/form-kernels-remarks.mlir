// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused max-threads-per-block=1024}))" | FileCheck %s

// Ops the fused strategy refuses still become (naive) kernels, with a remark
// saying why.

// An i16 accumulator (the optimizing pipeline widens such sums first,
// memopt-narrow-integer-accumulators) has no exchange form in the row
// kernel.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @i16_accumulator
// CHECK:         gpu.launch
// CHECK:           scf.for {{.*}} -> (i16)
// CHECK-NOT:       gpu.shuffle
// CHECK-NOT:     linalg.generic
func.func @i16_accumulator(%a: memref<64x1024xi16>, %o: memref<64xi16>) {
  // expected-remark @+1 {{no fused strategy applies}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x1024xi16>) outs(%o : memref<64xi16>) {
  ^bb0(%x: i16, %acc: i16):
    %s = arith.addi %x, %acc : i16
    linalg.yield %s : i16
  }
  return
}

// -----

// An f64 accumulator: a row kernel whose partials are shuffled as f64
// (two 32-bit shuffles each in NVVM).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @f64_accumulator
// CHECK:         gpu.launch
// CHECK:           vector.load {{.*}} vector<2xf64>
// CHECK:           gpu.shuffle xor {{.*}} : f64
func.func @f64_accumulator(%a: memref<64x1024xf64>, %o: memref<64xf64>) {
  // expected-remark @+1 {{64 rows spread over clusters of 4 blocks}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x1024xf64>) outs(%o : memref<64xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %s = arith.addf %x, %acc : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// 32768 elements per row is exactly the register budget (32 per thread at
// 1024 threads): the row stays in registers, no loop over tiles (and the 4
// rows are spread over clusters).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_at_budget
// CHECK:         gpu.launch
// CHECK:           gpu.shuffle
// CHECK-NOT:       scf.for
func.func @row_at_budget(%a: memref<4x32768xf32>, %o: memref<4xf32>) {
  // expected-remark @+1 {{4 rows spread over clusters of 16 blocks: a block per row would keep 128 of 132 multiprocessors idle}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x32768xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction with two outputs is not combine(acc, f(x)).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @two_outputs
// CHECK:         gpu.launch
// CHECK:           scf.for {{.*}} -> (f32, f32)
func.func @two_outputs(%a: memref<64x128xf32>, %o: memref<64xf32>, %p: memref<64xf32>) {
  // expected-remark @+1 {{no fused strategy applies}}
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x128xf32>) outs(%o, %p : memref<64xf32>, memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32, %acc2: f32):
    %s = arith.addf %x, %acc : f32
    %m = arith.maximumf %x, %acc2 : f32
    linalg.yield %s, %m : f32, f32
  }
  return
}

// -----

// subf is not an associative combiner.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @non_associative_combiner
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             arith.subf
func.func @non_associative_combiner(%a: memref<64x128xf32>, %o: memref<64xf32>) {
  // expected-remark @+1 {{no fused strategy applies (transpose: not a single-output all-parallel op of rank >= 2; column reduction: not a reduction over one loop with parallel loops inside it); using a naive kernel}}
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x128xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.subf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A column reduction whose combiner has no atomic form (mulf): no form the
// selector picks uses atomics (64 rows, too few to split: whole columns).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @column_product
// CHECK:         gpu.launch
// CHECK-NOT:       memref.atomic_rmw
func.func @column_product(%a: memref<64x128xf32>, %o: memref<128xf32>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<64x128xf32>) outs(%o : memref<128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.mulf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Nine rows of 2176 columns: a row lane per row (16, the next power of
// two) and 16 chunks side by side per block, 34 blocks; the whole-column
// form needs no atomics, so a product reduces without a remark, one store
// per column seeded by the output's old value.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @wide_column_product
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c34{{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK-SAME:      workgroup({{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:       memref.atomic_rmw
// CHECK:           gpu.barrier
// CHECK:           memref.load %{{.*}} : memref<2176xf32>
// CHECK:           arith.mulf
// CHECK:           memref.store %{{.*}} : memref<2176xf32>
func.func @wide_column_product(%a: memref<9x2176xf32>, %o: memref<2176xf32>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<9x2176xf32>) outs(%o : memref<2176xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.mulf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Fusion consults the predicted sector efficiency (AccessPattern.h,
// predictSectorUse): an op after a tiled transpose that reads another input
// across the output's contiguous dimension would use 4 of every 32 bytes in
// the tile's store phase, so it is not its epilogue and gets its own tiled
// kernel.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tile_epilogue_refused
// CHECK-COUNT-2: gpu.launch
func.func @tile_epilogue_refused(%a: memref<64x96xf32>, %c: memref<64x96xf32>, %o: memref<96x64xf32>) {
  %t = memref.alloc() : memref<96x64xf32>
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x96xf32>) outs(%t : memref<96x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  // expected-remark @+1 {{not fused with the preceding tiled transpose: its fused read of an input would use 13% of each 32-byte sector}}
  linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %c : memref<96x64xf32>, memref<64x96xf32>) outs(%o : memref<96x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Elementwise ops before a transpose join its tile only when the transpose
// reads their result: here it reads another buffer.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tile_prologue_refused
// CHECK-COUNT-2: gpu.launch
func.func @tile_prologue_refused(%a: memref<64x96xf32>, %c: memref<64x96xf32>, %o: memref<96x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x96xf32>) outs(%c : memref<64x96xf32>) {
  ^bb0(%x: f32, %z: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  // expected-remark @+1 {{not fused with the preceding kernel group: the transpose does not read the group's result}}
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x96xf32>) outs(%o : memref<96x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A transpose that overwrites a buffer its prologue reads stays apart.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tile_prologue_overwrite
// CHECK-COUNT-2: gpu.launch
func.func @tile_prologue_overwrite(%a: memref<64x64xf32>, %p: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf32>) outs(%p : memref<64x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  // expected-remark @+1 {{not fused with the preceding kernel group: the transpose uses a group buffer at another position}}
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : memref<64x64xf32>) outs(%a : memref<64x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// The same for a strided read: field 0 of pairs, 8 useful bytes of every 16
// (50%); the op runs as a kernel of its own.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#f0 = affine_map<(d0, d1) -> (d0, d1, 0)>
// CHECK-LABEL: func.func @tile_epilogue_strided
// CHECK-COUNT-2: gpu.launch
func.func @tile_epilogue_strided(%a: memref<64x96xf32>, %c: memref<96x64x2xf32>, %o: memref<96x64xf32>) {
  %t = memref.alloc() : memref<96x64xf32>
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x96xf32>) outs(%t : memref<96x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  // expected-remark @+1 {{not fused with the preceding tiled transpose: its fused read of an input would use 50% of each 32-byte sector}}
  linalg.generic {indexing_maps = [#id, #f0, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %c : memref<96x64xf32>, memref<96x64x2xf32>) outs(%o : memref<96x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transpose that updates its output in place (O = O + T^T: each thread
// reads and writes its own elements of O) keeps its tile but fuses nothing:
// the op after it, which writes T while other blocks may still stage T,
// gets a kernel of its own.
#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tile_in_place
// CHECK:         gpu.launch {{.*}} workgroup(
// CHECK:         gpu.launch
// CHECK-NOT:     workgroup(
func.func @tile_in_place(%t: memref<64x64xf32>, %o: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#tr, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %o : memref<64x64xf32>, memref<64x64xf32>) outs(%o : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o : memref<64x64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}
