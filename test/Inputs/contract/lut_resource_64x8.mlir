// Tables imported as module resources (torch-mlir's and IREE's form for
// weights): a per-column f32 scale and a per-column i32 offset, both
// dense_resource, read by one generic over 64 x 8.
#map = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @lut_resource(%x: tensor<64x8xf32>) -> tensor<64x8xf32> {
  %s = arith.constant dense_resource<scale> : tensor<8xf32>
  %o = arith.constant dense_resource<offset> : tensor<8xi32>
  %e = tensor.empty() : tensor<64x8xf32>
  %r = linalg.generic {indexing_maps = [#map, #col, #col, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %o : tensor<64x8xf32>, tensor<8xf32>, tensor<8xi32>) outs(%e : tensor<64x8xf32>) {
  ^bb0(%a: f32, %t: f32, %k: i32, %out: f32):
    %m = arith.mulf %a, %t : f32
    %kf = arith.sitofp %k : i32 to f32
    %y = arith.addf %m, %kf : f32
    linalg.yield %y : f32
  } -> tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}
{-#
  dialect_resources: {
    builtin: {
      scale: "0x040000000000803F0000004000004040000080C00000003F000020410000C0BF0000803E",
      offset: "0x0400000001000000FEFFFFFF0300000000000000070000000A000000F6FFFFFF02000000"
    }
  }
#-}
