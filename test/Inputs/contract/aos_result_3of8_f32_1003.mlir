// Contract input: an array-of-records result whose fields 0..2 are computed
// and fields 3..7 are copied from the argument's records (a particle
// position update: x y z move by velocity * dt, vx vy vz m q pass through).
//   p: 1003 records x 8 f32 fields (x y z vx vy vz m q), odd count on purpose
//   out[i, f] = f < 3 ? p[i, f] + p[i, f + 3] * 0.5 : p[i, f]
// The velocity is read through the record loop's index: field f of the
// velocity is selected from three per-field generic inputs at fields 3..5.
// Only 3 of every 8 fields are computed (memopt-aos-to-soa returns one
// array per computed field; the runtime copies the rest from p on the host).

#rec = affine_map<(d0, d1) -> (d0, d1)>
#f3 = affine_map<(d0, d1) -> (d0, 3)>
#f4 = affine_map<(d0, d1) -> (d0, 4)>
#f5 = affine_map<(d0, d1) -> (d0, 5)>
func.func @aos_result_3of8_f32_1003(%p: tensor<1003x8xf32>) -> tensor<1003x8xf32> {
  %e = tensor.empty() : tensor<1003x8xf32>
  %r = linalg.generic {indexing_maps = [#rec, #f3, #f4, #f5, #rec],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p, %p, %p, %p : tensor<1003x8xf32>, tensor<1003x8xf32>, tensor<1003x8xf32>, tensor<1003x8xf32>)
      outs(%e : tensor<1003x8xf32>) {
  ^bb0(%x: f32, %vx: f32, %vy: f32, %vz: f32, %o: f32):
    %f = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %dt = arith.constant 5.000000e-01 : f32
    %is0 = arith.cmpi eq, %f, %c0 : index
    %is1 = arith.cmpi eq, %f, %c1 : index
    %v12 = arith.select %is1, %vy, %vz : f32
    %v = arith.select %is0, %vx, %v12 : f32
    %dx = arith.mulf %v, %dt : f32
    %moved = arith.addf %x, %dx : f32
    %pos = arith.cmpi ult, %f, %c3 : index
    %y = arith.select %pos, %moved, %x : f32
    linalg.yield %y : f32
  } -> tensor<1003x8xf32>
  return %r : tensor<1003x8xf32>
}
