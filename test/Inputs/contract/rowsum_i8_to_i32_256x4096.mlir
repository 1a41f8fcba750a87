// i8 input, i32 accumulate per row, then scale to f32 (quantized mean)
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @qmean(%x: tensor<256x4096xi8>, %s: tensor<256xf32>) -> tensor<256xf32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<256xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<256xi32>) -> tensor<256xi32>
  %sum = linalg.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x4096xi8>) outs(%f : tensor<256xi32>) {
  ^bb0(%a: i8, %o: i32):
    %w = arith.extsi %a : i8 to i32
    %q = arith.addi %w, %o : i32
    linalg.yield %q : i32
  } -> tensor<256xi32>
  %e2 = tensor.empty() : tensor<256xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum, %s : tensor<256xi32>, tensor<256xf32>) outs(%e2 : tensor<256xf32>) {
  ^bb0(%a: i32, %b: f32, %o: f32):
    %w = arith.sitofp %a : i32 to f32
    %m = arith.mulf %w, %b : f32
    linalg.yield %m : f32
  } -> tensor<256xf32>
  return %out : tensor<256xf32>
}
