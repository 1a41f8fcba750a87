// Slices of slices feeding reductions: x[1:5] then [..., 3:30] (nested
// tensor.extract_slice), its mean over the last dim and a sum over the
// middle dim of the first slice's columns 0:16 (a column reduction of a
// slice); the rank-reduced slice x[2] scaled as a third output.
func.func @narrow_mean(%x: tensor<6x40x33xf32>) -> (tensor<4x40xf32>, tensor<4x16xf32>, tensor<40x33xf32>) {
  %a = tensor.extract_slice %x[1, 0, 0] [4, 40, 33] [1, 1, 1] : tensor<6x40x33xf32> to tensor<4x40x33xf32>
  %b = tensor.extract_slice %a[0, 0, 3] [4, 40, 27] [1, 1, 1] : tensor<4x40x33xf32> to tensor<4x40x27xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x40xf32>) -> tensor<4x40xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%b : tensor<4x40x27xf32>) outs(%f : tensor<4x40xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x40xf32>
  %e1 = tensor.empty() : tensor<4x40xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x40xf32>) outs(%e1 : tensor<4x40xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.constant 27.0 : f32
    %d = arith.divf %v, %n : f32
    linalg.yield %d : f32
  } -> tensor<4x40xf32>
  %c = tensor.extract_slice %a[0, 0, 0] [4, 40, 16] [1, 1, 1] : tensor<4x40x33xf32> to tensor<4x40x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %cs = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, k)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%c : tensor<4x40x16xf32>) outs(%f2 : tensor<4x16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %x2 = tensor.extract_slice %x[2, 0, 0] [1, 40, 33] [1, 1, 1] : tensor<6x40x33xf32> to tensor<40x33xf32>
  %e3 = tensor.empty() : tensor<40x33xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(j, k) -> (j, k)>, affine_map<(j, k) -> (j, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%x2 : tensor<40x33xf32>) outs(%e3 : tensor<40x33xf32>) {
  ^bb0(%v: f32, %o: f32):
    %h = arith.constant 3.0 : f32
    %d = arith.mulf %v, %h : f32
    linalg.yield %d : f32
  } -> tensor<40x33xf32>
  return %m, %cs, %sc : tensor<4x40xf32>, tensor<4x16xf32>, tensor<40x33xf32>
}
