// Bench input posadd: x + pos, a learned positional table [1, S, D]
// broadcast over the batch through a keepdim map (torch-mlir's form of
// x + pos[None]), 8x4096x2048 f32. Minimum bytes: x and y 268,435,456
// each, the table 33,554,432: 570,425,344. In row order each batch's sweep
// (100 MB) evicts the table from L2 before the next batch reads it.
#x3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#p3 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
func.func @posadd(%x: tensor<8x4096x2048xf32>, %pos: tensor<1x4096x2048xf32>) -> tensor<8x4096x2048xf32> {
  %e = tensor.empty() : tensor<8x4096x2048xf32>
  %y = linalg.generic {indexing_maps = [#x3, #p3, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %pos : tensor<8x4096x2048xf32>, tensor<1x4096x2048xf32>) outs(%e : tensor<8x4096x2048xf32>) {
  ^bb0(%a: f32, %p: f32, %o: f32):
    %v = arith.addf %a, %p : f32
    linalg.yield %v : f32
  } -> tensor<8x4096x2048xf32>
  return %y : tensor<8x4096x2048xf32>
}
