// Few long rows stream over clusters: where the row-on-chip form's
// clusters would run two waves of the multiprocessors' slots (the second a
// whole load-reduce-store round of its own), the rows stream in tiles
// instead, each over a cluster of as few blocks (a power of two within the
// portable 8) as give nine tenths of the multiprocessors a block, when the
// rows in flight fit in L2 for the walks that re-read them (a weight
// shared by every row counts once). Clusters that fit in one wave (every
// slice loaded at once) or run more than two (whose waves overlap) stay
// on chip, and so do rows too few for any cluster of 8 to give three
// quarters of the multiprocessors a block. The H200's defaults (132
// multiprocessors). The plan only.
// RUN: memopt-opt %s --split-input-file --memopt-plan-stage 2>/dev/null | FileCheck %s
// RUN: memopt-opt %s --split-input-file --memopt-plan-stage 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// RMSNorm over 64 bf16 rows of 262144: on chip, clusters of 8 blocks of
// 512 (two waves of 264 slots); streamed, 2 blocks a row give 128 of the
// 132 multiprocessors a block (32768 chunks of 8 lanes: 16 tiles of 1024 a
// block); 32 MiB in flight, gamma once.
// CHECK-LABEL: func.func @rms_bf16_64x262144
// REMARK:      remark: 64 rows of 262144 elements streamed over clusters of 2 blocks: held on chip, clusters of 8 would run 512 blocks in 264 slots
// CHECK:       #memopt.streamed_row<vector = 8, threads = 1024, tiles = 16, reserved_shared_bytes = 117760, cluster = 2>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rms_bf16_64x262144(%x: tensor<64x262144xbf16>, %g: tensor<262144xbf16>) -> tensor<64x262144xbf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x262144xbf16>) outs(%f0 : tensor<64xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %zc = arith.constant 0.0 : f32
    %w = arith.extf %a : bf16 to f32
    %q = arith.mulf %w, %w : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x262144xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<64x262144xbf16>, tensor<64xf32>, tensor<262144xbf16>) outs(%e1 : tensor<64x262144xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gv: bf16, %o: bf16):
    %zc = arith.constant 0.0 : f32
    %n = arith.constant 262144.0 : f32
    %m = arith.divf %s, %n : f32
    %rs = math.rsqrt %m : f32
    %w = arith.extf %a : bf16 to f32
    %gw = arith.extf %gv : bf16 to f32
    %p = arith.mulf %w, %rs : f32
    %u = arith.mulf %p, %gw : f32
    %t = arith.truncf %u : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x262144xbf16>
  return %y : tensor<64x262144xbf16>
}

// -----

// 256 bf16 rows of 65536: a block per row already gives 256 of the 264
// slots of two waves a block.
// CHECK-LABEL: func.func @rms_bf16_256x65536
// REMARK:      remark: 256 rows of 65536 elements streamed a block per row: held on chip, clusters of 4 would run 1024 blocks in 528 slots
// CHECK:       #memopt.streamed_row<vector = 8, threads = 1024, tiles = 8, reserved_shared_bytes = 117760>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rms_bf16_256x65536(%x: tensor<256x65536xbf16>, %g: tensor<65536xbf16>) -> tensor<256x65536xbf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x65536xbf16>) outs(%f0 : tensor<256xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %zc = arith.constant 0.0 : f32
    %w = arith.extf %a : bf16 to f32
    %q = arith.mulf %w, %w : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256x65536xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<256x65536xbf16>, tensor<256xf32>, tensor<65536xbf16>) outs(%e1 : tensor<256x65536xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gv: bf16, %o: bf16):
    %zc = arith.constant 0.0 : f32
    %n = arith.constant 65536.0 : f32
    %m = arith.divf %s, %n : f32
    %rs = math.rsqrt %m : f32
    %w = arith.extf %a : bf16 to f32
    %gw = arith.extf %gv : bf16 to f32
    %p = arith.mulf %w, %rs : f32
    %u = arith.mulf %p, %gw : f32
    %t = arith.truncf %u : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<256x65536xbf16>
  return %y : tensor<256x65536xbf16>
}

// -----

// 4096 f32 rows of 65536: clusters of 4 run 31 waves; they stay on chip.
// CHECK-LABEL: func.func @rms_f32_4096x65536
// REMARK-NOT:  remark: {{(4096|2) rows}}
// CHECK:       #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 8, cluster = 4,
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rms_f32_4096x65536(%x: tensor<4096x65536xf32>, %g: tensor<65536xf32>) -> tensor<4096x65536xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4096xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4096xf32>) -> tensor<4096xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4096x65536xf32>) outs(%f0 : tensor<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %zc = arith.constant 0.0 : f32
    %w = arith.addf %a, %zc : f32
    %q = arith.mulf %w, %w : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  %e1 = tensor.empty() : tensor<4096x65536xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<4096x65536xf32>, tensor<4096xf32>, tensor<65536xf32>) outs(%e1 : tensor<4096x65536xf32>) {
  ^bb0(%a: f32, %s: f32, %gv: f32, %o: f32):
    %zc = arith.constant 0.0 : f32
    %n = arith.constant 65536.0 : f32
    %m = arith.divf %s, %n : f32
    %rs = math.rsqrt %m : f32
    %w = arith.addf %a, %zc : f32
    %gw = arith.addf %gv, %zc : f32
    %p = arith.mulf %w, %rs : f32
    %u = arith.mulf %p, %gw : f32
    %t = arith.addf %u, %zc : f32
    linalg.yield %t : f32
  } -> tensor<4096x65536xf32>
  return %y : tensor<4096x65536xf32>
}

// -----

// Two rows (decode): no cluster of 8 gives three quarters of the
// multiprocessors a block; the on-chip clusters stay.
// CHECK-LABEL: func.func @rms_f32_2x131072
// REMARK-NOT:  remark: {{(4096|2) rows}}
// CHECK:       #memopt.row<
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @rms_f32_2x131072(%x: tensor<2x131072xf32>, %g: tensor<131072xf32>) -> tensor<2x131072xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2xf32>) -> tensor<2xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x131072xf32>) outs(%f0 : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %zc = arith.constant 0.0 : f32
    %w = arith.addf %a, %zc : f32
    %q = arith.mulf %w, %w : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %e1 = tensor.empty() : tensor<2x131072xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<2x131072xf32>, tensor<2xf32>, tensor<131072xf32>) outs(%e1 : tensor<2x131072xf32>) {
  ^bb0(%a: f32, %s: f32, %gv: f32, %o: f32):
    %zc = arith.constant 0.0 : f32
    %n = arith.constant 131072.0 : f32
    %m = arith.divf %s, %n : f32
    %rs = math.rsqrt %m : f32
    %w = arith.addf %a, %zc : f32
    %gw = arith.addf %gv, %zc : f32
    %p = arith.mulf %w, %rs : f32
    %u = arith.mulf %p, %gw : f32
    %t = arith.addf %u, %zc : f32
    linalg.yield %t : f32
  } -> tensor<2x131072xf32>
  return %y : tensor<2x131072xf32>
}

// -----

// Softmax (the named op) over 32 f32 rows of 262144: clusters of 16
// blocks of 256 (a transcendental function of each element) run 512
// blocks in one wave of 528 slots: on chip.
// CHECK-LABEL: func.func @softmax_f32_32x262144
// REMARK-NOT:  remark: 32 rows
// CHECK:       #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 8, cluster = 16, shared_chunks = 8, blocks_per_multiprocessor = 4, persistent_clusters = 0, online_softmax = true>
func.func @softmax_f32_32x262144(%x: tensor<32x262144xf32>) -> tensor<32x262144xf32> {
  %e = tensor.empty() : tensor<32x262144xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<32x262144xf32>) outs(%e : tensor<32x262144xf32>) -> tensor<32x262144xf32>
  return %y : tensor<32x262144xf32>
}

// -----

// Log-sum-exp over 16 bf16 rows of 131072 (too few to stream a block per
// row in one walk): clusters of 8 run 128 blocks, one wave; on chip.
// CHECK-LABEL: func.func @lse_torch_bf16_16x131072
// CHECK:       #memopt.row<vector = 4, shifted = false, threads = 256, chunks = 8, cluster = 8,
// REMARK-NOT:  remark: 16 rows
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
func.func @lse_torch_bf16_16x131072(%x: tensor<16x131072xbf16>) -> tensor<16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x131072xbf16>) outs(%f0 : tensor<16xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %m = arith.maximumf %w, %o : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<16x131072xbf16>, tensor<16xf32>) outs(%f1 : tensor<16xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %m : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %o : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// Log-sum-exp over 128 bf16 rows of 131072: clusters of 8 run 1024
// blocks in two waves of 528; streamed a block per row in one walk (128
// of the 132 multiprocessors).
// CHECK-LABEL: func.func @lse_torch_bf16_128x131072
// REMARK:      remark: 128 rows of 131072 elements streamed a block per row: held on chip, clusters of 8 would run 1024 blocks in 528 slots
// CHECK:       #memopt.streamed_row<vector = 8, threads = 1024, tiles = 16, reserved_shared_bytes = 114688, online_softmax = true>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
func.func @lse_torch_bf16_128x131072(%x: tensor<128x131072xbf16>) -> tensor<128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x131072xbf16>) outs(%f0 : tensor<128xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %m = arith.maximumf %w, %o : f32
    linalg.yield %m : f32
  } -> tensor<128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mx : tensor<128x131072xbf16>, tensor<128xf32>) outs(%f1 : tensor<128xf32>) {
  ^bb0(%a: bf16, %m: f32, %o: f32):
    %w = arith.extf %a : bf16 to f32
    %d = arith.subf %w, %m : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %o : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %y = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]}
      ins(%sm, %mx : tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %l = math.log %s : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>
  return %y : tensor<128xf32>
}
