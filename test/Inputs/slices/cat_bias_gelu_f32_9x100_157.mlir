// torch.cat([a, b], dim=1) of rows of 100 and 157 (odd, unaligned
// pieces), then + bias and tanh-GELU with linalg named ops; and
// torch.cat([a, a, c], dim=0) of 9 + 9 + 2 rows returned as is.
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @cat_gelu(%a: tensor<9x100xf32>, %b: tensor<9x157xf32>, %bias: tensor<257xf32>, %c: tensor<2x100xf32>) -> (tensor<9x257xf32>, tensor<20x100xf32>) {
  %cat = tensor.concat dim(1) %a, %b : (tensor<9x100xf32>, tensor<9x157xf32>) -> tensor<9x257xf32>
  %e = tensor.empty() : tensor<9x257xf32>
  %biased = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cat, %bias : tensor<9x257xf32>, tensor<257xf32>) outs(%e : tensor<9x257xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %s = arith.addf %v, %bb : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608 : f32
    %k2 = arith.constant 0.044715 : f32
    %x3 = arith.mulf %s, %s : f32
    %x3b = arith.mulf %x3, %s : f32
    %inner = arith.mulf %x3b, %k2 : f32
    %sum = arith.addf %s, %inner : f32
    %arg = arith.mulf %sum, %k : f32
    %t = math.tanh %arg : f32
    %tp = arith.addf %t, %one : f32
    %hx = arith.mulf %s, %half : f32
    %g = arith.mulf %hx, %tp : f32
    linalg.yield %g : f32
  } -> tensor<9x257xf32>
  %rows = tensor.concat dim(0) %a, %a, %c : (tensor<9x100xf32>, tensor<9x100xf32>, tensor<2x100xf32>) -> tensor<20x100xf32>
  return %biased, %rows : tensor<9x257xf32>, tensor<20x100xf32>
}
