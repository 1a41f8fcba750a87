// Fuzz reproducer: a linalg.generic whose outs operand is a function argument (also
// seen through tensor.expand_shape of an argument, seed 1056). All host pipelines,
// reference included, write the result into the argument's buffer:
// memopt-cpu-diff reports 'input arg1 was modified' / FAIL (even ref vs ref).
func.func @outs_is_input(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%y : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}
