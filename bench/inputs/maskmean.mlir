// Bench input maskmean: masked mean over rows of 16384 x 4096 f32 as torch decomposes
// it: sum(x * mask) in f32 and mask.sum() in i64 (a bool mask), then sum / count.
#x = affine_map<(r, k) -> (r, k)>
#st = affine_map<(r, k) -> (r)>
#id = affine_map<(r) -> (r)>
func.func @maskmean(%x: tensor<16384x4096xf32>, %m: tensor<16384x4096xi1>) -> tensor<16384xf32> {
  %zero = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i64
  %e = tensor.empty() : tensor<16384xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16384xf32>) -> tensor<16384xf32>
  %s = linalg.generic {indexing_maps = [#x, #x, #st], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<16384x4096xf32>, tensor<16384x4096xi1>) outs(%z : tensor<16384xf32>) {
  ^bb0(%a: f32, %b: i1, %acc: f32):
    %v = arith.select %b, %a, %zero : f32
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<16384xf32>
  %ei = tensor.empty() : tensor<16384xi64>
  %zc = linalg.fill ins(%zi : i64) outs(%ei : tensor<16384xi64>) -> tensor<16384xi64>
  %c = linalg.generic {indexing_maps = [#x, #st], iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<16384x4096xi1>) outs(%zc : tensor<16384xi64>) {
  ^bb0(%b: i1, %acc: i64):
    %w = arith.extui %b : i1 to i64
    %r = arith.addi %acc, %w : i64
    linalg.yield %r : i64
  } -> tensor<16384xi64>
  %e1 = tensor.empty() : tensor<16384xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%s, %c : tensor<16384xf32>, tensor<16384xi64>) outs(%e1 : tensor<16384xf32>) {
  ^bb0(%a: f32, %n: i64, %o: f32):
    %nf = arith.sitofp %n : i64 to f32
    %v = arith.divf %a, %nf : f32
    linalg.yield %v : f32
  } -> tensor<16384xf32>
  return %y : tensor<16384xf32>
}
