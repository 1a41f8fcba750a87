// tosa's NaN-propagating argmax form (as tosa-to-linalg writes nan_mode
// PROPAGATE) over log(x) for x in [-1, 1), about half the elements NaN: the
// first NaN of each row wins (its index, a NaN value) and nothing updates
// after it; the value and the i32 index both returned.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @am_nan(%arg0: tensor<8x500xf32>) -> (tensor<8xi32>, tensor<8xf32>) {
  %0 = tensor.empty() : tensor<8xi32>
  %c0_i32 = arith.constant 0 : i32
  %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<8xi32>) -> tensor<8xi32>
  %2 = tensor.empty() : tensor<8xf32>
  %cst = arith.constant -3.40282347E+38 : f32
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<8xf32>) -> tensor<8xf32>
  %4:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<8x500xf32>) outs(%1, %3 : tensor<8xi32>, tensor<8xf32>) {
  ^bb0(%in0: f32, %out: i32, %out_0: f32):
    %in = math.log %in0 : f32
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i32
    %7 = arith.cmpf ugt, %in, %out_0 : f32
    %8 = arith.cmpf ord, %out_0, %out_0 : f32
    %9 = arith.andi %7, %8 : i1
    %10 = arith.select %9, %in, %out_0 : f32
    %11 = arith.select %9, %6, %out : i32
    linalg.yield %11, %10 : i32, f32
  } -> (tensor<8xi32>, tensor<8xf32>)
  return %4#0, %4#1 : tensor<8xi32>, tensor<8xf32>
}
