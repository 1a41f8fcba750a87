// Low-precision accumulation: softmax over rows of 2048, f16 throughout, as
// four linalg.generic ops (the decomposition of linalg.softmax, but spelled out):
// f16 max reduction (init -inf, arith.maximumf), e = exp(x - max), f16 sum
// reduction of e (f16 accumulator), y = e / sum. Shape 32 x 2048, f16 out.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_f16_acc_32x2048(%x: tensor<32x2048xf16>) -> tensor<32x2048xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %e0 = tensor.empty() : tensor<32xf16>
  %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<32xf16>) -> tensor<32xf16>
  %max = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x2048xf16>) outs(%m0 : tensor<32xf16>) {
  ^bb0(%a: f16, %m: f16):
    %r = arith.maximumf %a, %m : f16
    linalg.yield %r : f16
  } -> tensor<32xf16>
  %e1 = tensor.empty() : tensor<32x2048xf16>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id],
                        iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<32x2048xf16>, tensor<32xf16>)
      outs(%e1 : tensor<32x2048xf16>) {
  ^bb0(%a: f16, %m: f16, %o: f16):
    %d = arith.subf %a, %m : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  } -> tensor<32x2048xf16>
  %e2 = tensor.empty() : tensor<32xf16>
  %s0 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<32xf16>) -> tensor<32xf16>
  %sum = linalg.generic {indexing_maps = [#id, #row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<32x2048xf16>) outs(%s0 : tensor<32xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %s = arith.addf %a, %acc : f16
    linalg.yield %s : f16
  } -> tensor<32xf16>
  %e3 = tensor.empty() : tensor<32x2048xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<32x2048xf16>, tensor<32xf16>)
      outs(%e3 : tensor<32x2048xf16>) {
  ^bb0(%a: f16, %s: f16, %o: f16):
    %q = arith.divf %a, %s : f16
    linalg.yield %q : f16
  } -> tensor<32x2048xf16>
  return %y : tensor<32x2048xf16>
}
