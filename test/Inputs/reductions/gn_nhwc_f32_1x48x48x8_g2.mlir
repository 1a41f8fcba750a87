// Group norm NHWC (channels last) 1 x 48 x 48 x 8 in 2 groups of 4: H*W =
// 2304 is longer than 1024 and strided (the contiguous dim is a group's
// channels), so its partials are taken per segment of 768 (two-pass:
// mean, then mean of squared deviations; per-channel gamma and beta).
#x5 = affine_map<(n, h, w, g, c) -> (n, h, w, g, c)>
#st5 = affine_map<(n, h, w, g, c) -> (n, g)>
#gc5 = affine_map<(n, h, w, g, c) -> (g, c)>
func.func @gn_nhwc(%x: tensor<1x48x48x8xf32>, %gamma: tensor<8xf32>, %beta: tensor<8xf32>) -> tensor<1x48x48x8xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 1.08506944e-04 : f32   // 1/9216
  %eps = arith.constant 1.0e-05 : f32
  %xe = tensor.expand_shape %x [[0], [1], [2], [3, 4]] output_shape [1, 48, 48, 2, 4] : tensor<1x48x48x8xf32> into tensor<1x48x48x2x4xf32>
  %ge = tensor.expand_shape %gamma [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %be = tensor.expand_shape %beta [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %e = tensor.empty() : tensor<1x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.generic {indexing_maps = [#x5, #st5], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]}
      ins(%xe : tensor<1x48x48x2x4xf32>) outs(%z : tensor<1x2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x2xf32>
  %e1 = tensor.empty() : tensor<1x2xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<1x2xf32>) outs(%e1 : tensor<1x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %inv : f32
    linalg.yield %m : f32
  } -> tensor<1x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sq = linalg.generic {indexing_maps = [#x5, #st5, #st5], iterator_types = ["parallel", "reduction", "reduction", "parallel", "reduction"]}
      ins(%xe, %mean : tensor<1x48x48x2x4xf32>, tensor<1x2xf32>) outs(%z2 : tensor<1x2xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %d2 : f32
    linalg.yield %s : f32
  } -> tensor<1x2xf32>
  %eo = tensor.empty() : tensor<1x48x48x2x4xf32>
  %y = linalg.generic {indexing_maps = [#x5, #st5, #st5, #gc5, #gc5, #x5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%xe, %mean, %sq, %ge, %be : tensor<1x48x48x2x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%eo : tensor<1x48x48x2x4xf32>) {
  ^bb0(%a: f32, %m: f32, %q: f32, %g: f32, %b: f32, %o: f32):
    %v = arith.mulf %q, %inv : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %n = arith.mulf %d, %r : f32
    %t = arith.mulf %n, %g : f32
    %u = arith.addf %t, %b : f32
    linalg.yield %u : f32
  } -> tensor<1x48x48x2x4xf32>
  %yc = tensor.collapse_shape %y [[0], [1], [2], [3, 4]] : tensor<1x48x48x2x4xf32> into tensor<1x48x48x8xf32>
  return %yc : tensor<1x48x48x8xf32>
}
