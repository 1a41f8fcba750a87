// RMSNorm and softmax over 8 rows of 65536 f32: the benchmark kernels
// (bench/inputs/rml65k.mlir, sml65k.mlir) with fewer rows.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @rms_8x65536(%x: tensor<8x65536xf32>, %g: tensor<65536xf32>) -> tensor<8x65536xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %ssq = linalg.generic {indexing_maps = [#id2, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x65536xf32>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ssq : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 65536.0 : f32
    %eps = arith.constant 9.99999997E-7 : f32
    %ms = arith.divf %in, %n : f32
    %me = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %me : f32
    linalg.yield %rs : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x65536xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %rstd, %g : tensor<8x65536xf32>, tensor<8xf32>, tensor<65536xf32>)
      outs(%e2 : tensor<8x65536xf32>) {
  ^bb0(%a: f32, %rs: f32, %gv: f32, %out: f32):
    %n = arith.mulf %a, %rs : f32
    %o = arith.mulf %n, %gv : f32
    linalg.yield %o : f32
  } -> tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}

func.func @softmax_8x65536(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  %e = tensor.empty() : tensor<8x65536xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<8x65536xf32>) outs(%e : tensor<8x65536xf32>) -> tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}
