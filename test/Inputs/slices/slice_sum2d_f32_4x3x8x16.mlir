// Sums over the two inner dims of slices (a GroupNorm statistic on an
// unbind piece, sum(dim=(-2, -1)) of x[..., :12]): the folded maps carry
// constants and modular indices, which the reduced-dims collapse must not
// read as dims (it leaves them, with a remark).
func.func @slice_sum2d(%x: tensor<4x3x8x16xf32>) -> (tensor<4xf32>, tensor<4x3xf32>) {
  %a = tensor.extract_slice %x[0, 0, 0, 0] [4, 1, 8, 16] [1, 1, 1, 1] : tensor<4x3x8x16xf32> to tensor<4x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, h, w) -> (n, h, w)>, affine_map<(n, h, w) -> (n)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%a : tensor<4x8x16xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %b = tensor.extract_slice %x[0, 0, 0, 0] [4, 3, 8, 12] [1, 1, 1, 1] : tensor<4x3x8x16xf32> to tensor<4x3x8x12xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%b : tensor<4x3x8x12xf32>) outs(%f2 : tensor<4x3xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.mulf %v, %v : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x3xf32>
  return %s, %t : tensor<4xf32>, tensor<4x3xf32>
}
