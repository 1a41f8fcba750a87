// Complex magnitudes |x| (fields 0 and 1 of interleaved f32 pairs, written
// to both fields) scaled elementwise by y in a second generic over whole
// records: memopt-widen-records widens the consumer with its producer, so
// the two still fuse into one kernel over the same loop.
func.func @magnitude_scale(%x: tensor<9x100x2xf32>, %y: tensor<9x100x2xf32>) -> tensor<9x100x2xf32> {
  %e = tensor.empty() : tensor<9x100x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, q, c) -> (a, q, 0)>, affine_map<(a, q, c) -> (a, q, 1)>, affine_map<(a, q, c) -> (a, q, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %x : tensor<9x100x2xf32>, tensor<9x100x2xf32>) outs(%e : tensor<9x100x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %n = arith.mulf %b, %b : f32
    %s = arith.addf %m, %n : f32
    %r = math.sqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<9x100x2xf32>
  %e2 = tensor.empty() : tensor<9x100x2xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(a, q, c) -> (a, q, c)>, affine_map<(a, q, c) -> (a, q, c)>, affine_map<(a, q, c) -> (a, q, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %y : tensor<9x100x2xf32>, tensor<9x100x2xf32>) outs(%e2 : tensor<9x100x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<9x100x2xf32>
  return %z : tensor<9x100x2xf32>
}
