// Contract input: W1 in f16 (inputs and output), written only with linalg named ops.
//   y = gelu_tanh(x * s + b) + r, shape 256 x 1024, every value f16.
// Scalar constants are materialized as linalg.fill on tensor.empty (no arith.constant
// tensors), and GELU is composed from linalg.mul / linalg.add / linalg.tanh.
// Arithmetic is in f16 throughout (no upcast), as an f16 torch graph lowers.
// All ops share ONE tensor.empty as their destination (what CSE leaves behind), so
// destination-passing must not be mistaken for data flow.

func.func @gelu_f16_named_256x1024(%x: tensor<256x1024xf16>, %s: tensor<1024xf16>,
                                   %b: tensor<1024xf16>, %r: tensor<256x1024xf16>)
    -> tensor<256x1024xf16> {
  %chalf = arith.constant 5.000000e-01 : f16
  %cone = arith.constant 1.000000e+00 : f16
  %ck = arith.constant 0.7978845608 : f16
  %ca = arith.constant 4.471500e-02 : f16
  %e = tensor.empty() : tensor<256x1024xf16>
  %sb = linalg.broadcast ins(%s : tensor<1024xf16>) outs(%e : tensor<256x1024xf16>)
          dimensions = [0]
  %bb = linalg.broadcast ins(%b : tensor<1024xf16>) outs(%e : tensor<256x1024xf16>)
          dimensions = [0]
  %xs = linalg.mul ins(%x, %sb : tensor<256x1024xf16>, tensor<256x1024xf16>)
          outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %v = linalg.add ins(%xs, %bb : tensor<256x1024xf16>, tensor<256x1024xf16>)
         outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  // constants as filled tensors
  %half = linalg.fill ins(%chalf : f16) outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %one = linalg.fill ins(%cone : f16) outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %k = linalg.fill ins(%ck : f16) outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %a = linalg.fill ins(%ca : f16) outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  // v^3
  %v2 = linalg.square ins(%v : tensor<256x1024xf16>) outs(%e : tensor<256x1024xf16>)
          -> tensor<256x1024xf16>
  %v3 = linalg.mul ins(%v2, %v : tensor<256x1024xf16>, tensor<256x1024xf16>)
          outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  // k * (v + a * v^3)
  %av3 = linalg.mul ins(%a, %v3 : tensor<256x1024xf16>, tensor<256x1024xf16>)
           outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %in = linalg.add ins(%v, %av3 : tensor<256x1024xf16>, tensor<256x1024xf16>)
          outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %kin = linalg.mul ins(%k, %in : tensor<256x1024xf16>, tensor<256x1024xf16>)
           outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %t = linalg.tanh ins(%kin : tensor<256x1024xf16>) outs(%e : tensor<256x1024xf16>)
         -> tensor<256x1024xf16>
  // 0.5 * v * (1 + t) + r
  %onep = linalg.add ins(%one, %t : tensor<256x1024xf16>, tensor<256x1024xf16>)
            outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %hv = linalg.mul ins(%half, %v : tensor<256x1024xf16>, tensor<256x1024xf16>)
          outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %g = linalg.mul ins(%hv, %onep : tensor<256x1024xf16>, tensor<256x1024xf16>)
         outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %y = linalg.add ins(%g, %r : tensor<256x1024xf16>, tensor<256x1024xf16>)
         outs(%e : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  return %y : tensor<256x1024xf16>
}
