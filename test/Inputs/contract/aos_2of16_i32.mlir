// Contract input: array-of-structures read at 2 of 16 fields, integer output.
//   p: 4096 records x 16 f32 fields; reads fields 2 and 9 only (constant-index maps
//   (d0) -> (d0, 2) and (d0) -> (d0, 9)).
//   cell[i] = fptosi(floor(p[i,2] * 16.0 + p[i,9])) : i32
// Only 2 of every 16 floats are needed (8 of 64 bytes per record).

#f2 = affine_map<(d0) -> (d0, 2)>
#f9 = affine_map<(d0) -> (d0, 9)>
#id = affine_map<(d0) -> (d0)>
func.func @aos_2of16_i32(%p: tensor<4096x16xf32>) -> tensor<4096xi32> {
  %e = tensor.empty() : tensor<4096xi32>
  %y = linalg.generic {indexing_maps = [#f2, #f9, #id], iterator_types = ["parallel"]}
      ins(%p, %p : tensor<4096x16xf32>, tensor<4096x16xf32>) outs(%e : tensor<4096xi32>) {
  ^bb0(%a: f32, %b: f32, %o: i32):
    %c16 = arith.constant 1.600000e+01 : f32
    %m = arith.mulf %a, %c16 : f32
    %s = arith.addf %m, %b : f32
    %fl = math.floor %s : f32
    %i = arith.fptosi %fl : f32 to i32
    linalg.yield %i : i32
  } -> tensor<4096xi32>
  return %y : tensor<4096xi32>
}
