// The lane model on memopt's own kernels, formed from linalg on memrefs:
// the fused transpose stages a tile (padded by memopt-bank-fix) (coalesced global accesses,
// conflict-free shared ones), the naive transpose writes with a stride, an
// AoS field read uses one word per 24-byte record, a bf16 elementwise
// kernel moves 16 bytes per lane.
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=fused}),memopt-bank-fix)" | memopt-opt --test-memopt-print-access-patterns 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: memopt-opt %s --pass-pipeline="builtin.module(func.func(memopt-form-kernels{strategy=naive}))" | memopt-opt --test-memopt-print-access-patterns 2>&1 | FileCheck %s --check-prefix=NAIVE

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @transpose(%a: memref<96x64xf32>, %o: memref<64x96xf32>) {
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<96x64xf32>) outs(%o : memref<64x96xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
// FUSED: global read of 4 B per lane: 4 sectors for 128 useful bytes (100.0% sector efficiency); contiguous
// FUSED: shared write of 4 B per lane: conflict-free
// FUSED: shared read of 4 B per lane: conflict-free (1 wavefronts, ideal 1); not contiguous
// FUSED: global write of 4 B per lane: 4 sectors for 128 useful bytes (100.0% sector efficiency); contiguous
// NAIVE: global read of 4 B per lane: 32 sectors for 128 useful bytes (12.5% sector efficiency); not contiguous
// NAIVE: global write of 4 B per lane: 4 sectors for 128 useful bytes (100.0% sector efficiency); contiguous

#f2 = affine_map<(d0) -> (d0, 2)>
#v = affine_map<(d0) -> (d0)>
func.func @aos_field(%r: memref<1024x6xf32>, %o: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#f2, #v], iterator_types = ["parallel"]}
      ins(%r : memref<1024x6xf32>) outs(%o : memref<1024xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
// FUSED: global read of 4 B per lane: 24 sectors for 128 useful bytes (16.7% sector efficiency); not contiguous
// NAIVE: global read of 4 B per lane: 24 sectors for 128 useful bytes (16.7% sector efficiency); not contiguous

func.func @scale_bf16(%a: memref<4096xbf16>, %o: memref<4096xbf16>) {
  linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%a : memref<4096xbf16>) outs(%o : memref<4096xbf16>) {
  ^bb0(%x: bf16, %y: bf16):
    %s = arith.addf %x, %x : bf16
    linalg.yield %s : bf16
  }
  return
}
// FUSED: global read of 16 B per lane: 16 sectors for 512 useful bytes (100.0% sector efficiency); contiguous, address divisible by 16 B
// FUSED: global write of 16 B per lane: 16 sectors for 512 useful bytes (100.0% sector efficiency); contiguous, address divisible by 16 B
// NAIVE: global read of 2 B per lane: 2 sectors for 64 useful bytes (100.0% sector efficiency); contiguous
