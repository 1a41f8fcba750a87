// tosa.argmax (axis 1) of f16 (16, 4000) with the default nan_mode PROPAGATE,
// as mlir-opt 22's tosa-to-linalg writes it: the value and the i32 index
// updated when (x >u acc) and acc is ordered, so a NaN wins once and stays.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @am(%arg0: tensor<16x4000xf16>) -> tensor<16xi32> {
  %0 = tensor.empty() : tensor<16xi32>
  %c0_i32 = arith.constant 0 : i32
  %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<16xi32>) -> tensor<16xi32>
  %2 = tensor.empty() : tensor<16xf16>
  %cst = arith.constant -6.550400e+04 : f16
  %3 = linalg.fill ins(%cst : f16) outs(%2 : tensor<16xf16>) -> tensor<16xf16>
  %4:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<16x4000xf16>) outs(%1, %3 : tensor<16xi32>, tensor<16xf16>) {
  ^bb0(%in: f16, %out: i32, %out_0: f16):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i32
    %7 = arith.cmpf ugt, %in, %out_0 : f16
    %8 = arith.cmpf ord, %out_0, %out_0 : f16
    %9 = arith.andi %7, %8 : i1
    %10 = arith.select %9, %in, %out_0 : f16
    %11 = arith.select %9, %6, %out : i32
    linalg.yield %11, %10 : i32, f16
  } -> (tensor<16xi32>, tensor<16xf16>)
  return %4#0 : tensor<16xi32>
}
