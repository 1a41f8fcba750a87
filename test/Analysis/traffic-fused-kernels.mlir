// RUN: memopt-opt %s --split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}), test-memopt-print-traffic)"

// Modelled bytes of fused kernels: a row group reads x once and writes y once
// (the minimum); a column reduction reads x once and updates y with atomics;
// a tiled transpose moves each element once (the tile is not DRAM).

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
func.func @rmsnorm(%a: memref<64x128xf32>, %o: memref<64x128xf32>) {
  %z = arith.constant 0.0 : f32
  %t = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  // expected-remark @+1 {{traffic: read 32768 B, written 32768 B}}
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%z : f32) outs(%t : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x128xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : memref<64x128xf32>, memref<64xf32>) outs(%o : memref<64x128xf32>) {
  ^bb0(%x: f32, %s: f32, %y: f32):
    %r = math.rsqrt %s : f32
    %m = arith.mulf %x, %r : f32
    linalg.yield %m : f32
  }
  memref.dealloc %t : memref<64xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sc = affine_map<(d0) -> ()>
#id1 = affine_map<(d0) -> (d0)>
func.func @colsum(%a: memref<256x128xf32>, %o: memref<128xf32>) {
  %z = arith.constant 0.0 : f32
  // The fill seeds the whole-column kernel: one kernel, the input read
  // once and each sum written once.
  linalg.generic {indexing_maps = [#sc, #id1], iterator_types = ["parallel"]}
      ins(%z : f32) outs(%o : memref<128xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  // expected-remark @+1 {{traffic: read 131072 B, written 512 B}}
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<256x128xf32>) outs(%o : memref<128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#tr = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose(%a: memref<256x128xf32>, %o: memref<128x256xf32>) {
  // expected-remark @+1 {{traffic: read 131072 B, written 131072 B}}
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<256x128xf32>) outs(%o : memref<128x256xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}
