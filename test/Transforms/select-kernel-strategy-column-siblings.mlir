// Sibling column reductions over the same loops share one kernel (each
// with its fill, in either order, and an epilogue over their outputs);
// reductions that cannot share one say why: the plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// Fill, sum, fill, sum of squares: one whole-column kernel seeded by both
// fills.
// CHECK-LABEL: func.func @interleaved
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, {{.*}}seed_from_fill = true>}
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @interleaved(%x: memref<512x4096xf32>, %s: memref<4096xf32>, %q: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%s : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%q : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%q : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// Both fills first (as bufferized tensor code often orders them), a sum
// and a max of bf16 columns accumulated in f32, then the mean/variance-like
// epilogue reading both results: one kernel of five ops.
// CHECK-LABEL: func.func @fills_first_epilogue
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, {{.*}}seed_from_fill = true>}
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @fills_first_epilogue(%x: memref<1024x2048xbf16>, %s: memref<2048xf32>, %m: memref<2048xf32>, %o: memref<2048xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<2048xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%ninf : f32) outs(%m : memref<2048xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<1024x2048xbf16>) outs(%s : memref<2048xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %r = arith.addf %w, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<1024x2048xbf16>) outs(%m : memref<2048xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %w = arith.extf %a : bf16 to f32
    %r = arith.maximumf %w, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#v1, #v1, #v1], iterator_types = ["parallel"]} ins(%s, %m : memref<2048xf32>, memref<2048xf32>) outs(%o : memref<2048xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// 24 columns of 100000 rows: split rows, both sums' partials in one
// workspace combined by one second kernel.
// CHECK-LABEL: func.func @split_siblings
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = split_rows, {{.*}}seed_from_fill = true, last_block = true>}
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @split_siblings(%x: memref<100000x24xf32>, %s: memref<24xf32>, %q: memref<24xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<24xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<100000x24xf32>) outs(%s : memref<24xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%q : memref<24xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<100000x24xf32>) outs(%q : memref<24xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %a, %a : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// The second sum reads the first one's result (x - mean, unscaled): it
// must see the finished sums, so the two stay two kernels and the second
// says why.
// CHECK-LABEL: func.func @reads_sibling_output
// CHECK-COUNT-2: memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column
// CHECK-NOT:   memopt.kernel_group
// REMARK: remark: column reduction not fused with the column reduction before it: a reduction reads the output of a sibling reduction
func.func @reads_sibling_output(%x: memref<512x4096xf32>, %s: memref<4096xf32>, %q: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%s : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%q : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x, %s : memref<512x4096xf32>, memref<4096xf32>) outs(%q : memref<4096xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %p = arith.mulf %d, %d : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#y2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>

// Column sums of two different inputs with the same loops and no fills
// (each accumulates into its output's old value): one kernel, two inputs.
// CHECK-LABEL: func.func @two_inputs_unseeded
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<form = whole_column, {{.*}}seed_from_fill = false>}
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:   memopt.kernel_group
func.func @two_inputs_unseeded(%x: memref<512x4096xf32>, %y: memref<512x4096xf32>, %s: memref<4096xf32>, %t: memref<4096xf32>) {
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<512x4096xf32>) outs(%s : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#y2, #c2], iterator_types = ["reduction", "parallel"]} ins(%y : memref<512x4096xf32>) outs(%t : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}
