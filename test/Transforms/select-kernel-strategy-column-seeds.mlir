// Fills of column reductions' outputs planned apart from them join the
// group that finishes the reduction: a row group with column partials
// (LayerNorm backward's dgamma and dbeta: the combining kernel starts from
// the fills' constants; elementwise rows alone too) and a column reduction
// whose fill was hoisted above other ops (its whole-column or split kernel
// seeds from the fill). No fill
// is a kernel of its own; a fill whose buffer another op reads between
// stays where it was. The plan only.
// RUN: memopt-opt %s --split-input-file --pass-pipeline="builtin.module(memopt-set-target, func.func(memopt-form-groups, memopt-select-kernel-strategy))" 2>/dev/null | FileCheck %s

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// dx = dy - sum(dy) per row; dbeta = sum(dy) per column, its fill after dx:
// one kernel group, the fill in it before the column reduction.
// CHECK-LABEL: func.func @row_group_seed
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.row<{{.*}}column_partials = {{[0-9]+}}
// CHECK:         linalg.generic {{.*}} outs(%[[RS:.+]] : memref<2048xf32>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%arg2 : memref<4096xf32>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} outs(%arg2 : memref<4096xf32>)
// CHECK:       }
// CHECK-NOT:   memopt.kernel_group
func.func @row_group_seed(%dy: memref<2048x4096xf32>, %dx: memref<2048x4096xf32>, %db: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<2048xf32>
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%s : memref<2048xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #r2], iterator_types = ["parallel", "reduction"]} ins(%dy : memref<2048x4096xf32>) outs(%s : memref<2048xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#x2, #r2, #x2], iterator_types = ["parallel", "parallel"]} ins(%dy, %s : memref<2048x4096xf32>, memref<2048xf32>) outs(%dx : memref<2048x4096xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%db : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%dy : memref<2048x4096xf32>) outs(%db : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  memref.dealloc %s : memref<2048xf32>
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// The fill hoisted above an elementwise op over rows of 64 f32 (too narrow
// for a row kernel to take the column sum): the column reduction takes the
// fill and seeds from it.
// CHECK-LABEL: func.func @hoisted_fill
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.elementwise
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:       }
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<{{.*}}seed_from_fill = true
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%arg3 : memref<64xf32>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK:       }
// CHECK-NOT:   memopt.kernel_group
func.func @hoisted_fill(%x: memref<16384x64xf32>, %y: memref<16384x64xf32>, %a: memref<16384x64xf32>, %cs: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%cs : memref<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #x2, #x2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<16384x64xf32>, memref<16384x64xf32>) outs(%a : memref<16384x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%a : memref<16384x64xf32>) outs(%cs : memref<64xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// Rows of 512 f32: the elementwise op alone is a row group that takes the
// column sum of what it writes (column partials: one pass over x and y, no
// read of a back) and the hoisted fill.
// CHECK-LABEL: func.func @elementwise_rows_column_sum
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.row<{{.*}}column_partials = {{[0-9]+}}
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%arg3 : memref<512xf32>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK:       }
// CHECK-NOT:   memopt.kernel_group
func.func @elementwise_rows_column_sum(%x: memref<4096x512xf32>, %y: memref<4096x512xf32>, %a: memref<4096x512xf32>, %cs: memref<512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%cs : memref<512xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #x2, #x2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<4096x512xf32>, memref<4096x512xf32>) outs(%a : memref<4096x512xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%a : memref<4096x512xf32>) outs(%cs : memref<512xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#c2 = affine_map<(d0, d1) -> (d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>

// The filled buffer is read between the fill and the reduction: the fill
// stays with that reader, and the reduction combines into the buffer.
// CHECK-LABEL: func.func @fill_read_between
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.elementwise
// CHECK-NEXT:    linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%arg2 : memref<512xf32>)
// CHECK:         linalg.generic {{.*}} ins(%arg2 : memref<512xf32>) outs(%arg1 : memref<512xf32>)
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<{{.*}}seed_from_fill = false
func.func @fill_read_between(%x: memref<4096x512xf32>, %t: memref<512xf32>, %cs: memref<512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%cs : memref<512xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#v1, #v1], iterator_types = ["parallel"]} ins(%cs : memref<512xf32>) outs(%t : memref<512xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.addf %p, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<4096x512xf32>) outs(%cs : memref<512xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x2 = affine_map<(d0, d1) -> (d0, d1)>
#k2 = affine_map<(d0, d1) -> (0, d1)>
#f2 = affine_map<(d0, d1) -> ()>

// The column sum writes row 0 of a 4 x 128 output only: the fill's other
// rows stay, so the fill is no seed and stays a kernel of its own, before.
// CHECK-LABEL: func.func @partial_output
// CHECK:       memopt.kernel_group
// CHECK-NEXT:    linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%arg2 : memref<4x128xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @partial_output(%x: memref<1024x128xf32>, %y: memref<1024x128xf32>, %out: memref<4x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#f2, #x2], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%out : memref<4x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#x2, #x2], iterator_types = ["parallel", "parallel"]} ins(%x : memref<1024x128xf32>) outs(%y : memref<1024x128xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.addf %p, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#x2, #k2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<1024x128xf32>) outs(%out : memref<4x128xf32>) {
  ^bb0(%p: f32, %acc: f32):
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

// A subview of the output, made before the fill, is written between the
// fill and the column sum: the fill stays where it was.
// CHECK-LABEL: func.func @aliased_between
// CHECK:       memopt.kernel_group
// CHECK-NEXT:    linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%arg2 : memref<64xf32>)
// CHECK:       memref.copy
// CHECK:       memopt.kernel_group attributes {strategy = #memopt.column_reduce<{{.*}}seed_from_fill = false
func.func @aliased_between(%x: memref<256x64xf32>, %v: memref<16xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.subview %out[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#s1, #v1], iterator_types = ["parallel"]} ins(%zero : f32) outs(%out : memref<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  memref.copy %v, %s : memref<16xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#x2, #c2], iterator_types = ["reduction", "parallel"]} ins(%x : memref<256x64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}
