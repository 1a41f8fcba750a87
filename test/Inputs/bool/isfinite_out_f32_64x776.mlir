// A bool result: isfinite(x * s) and x > 0.5, two i1 outputs of one generic.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @isfinite(%x: tensor<64x776xf32>) -> (tensor<64x776xi1>, tensor<64x776xi1>) {
  %e = tensor.empty() : tensor<64x776xi1>
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x776xf32>) outs(%e, %e : tensor<64x776xi1>, tensor<64x776xi1>) {
  ^bb0(%a: f32, %o: i1, %o2: i1):
    %inf = arith.constant 0x7F800000 : f32
    %h = arith.constant 0.5 : f32
    %s = arith.constant 1.0e38 : f32
    %t = arith.mulf %a, %s : f32
    %abs = math.absf %t : f32
    %f = arith.cmpf olt, %abs, %inf : f32
    %g = arith.cmpf ogt, %a, %h : f32
    linalg.yield %f, %g : i1, i1
  } -> (tensor<64x776xi1>, tensor<64x776xi1>)
  return %r#0, %r#1 : tensor<64x776xi1>, tensor<64x776xi1>
}
