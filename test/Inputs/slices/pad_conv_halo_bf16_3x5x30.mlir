// F.pad as torch-mlir lowers it today (tensor.pad by a constant, both
// sides of the last two dims), then a three-tap stencil along the row
// reading the padded tensor at j, j + 1, j + 2 through slices, bf16 with
// f32 math: the padding is never materialized.
func.func @halo(%x: tensor<3x5x30xbf16>) -> tensor<3x7x30xbf16> {
  %cst = arith.constant 1.0 : bf16
  %p = tensor.pad %x low[0, 1, 1] high[0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index):
    tensor.yield %cst : bf16
  } : tensor<3x5x30xbf16> to tensor<3x7x32xbf16>
  %l = tensor.extract_slice %p[0, 0, 0] [3, 7, 30] [1, 1, 1] : tensor<3x7x32xbf16> to tensor<3x7x30xbf16>
  %m = tensor.extract_slice %p[0, 0, 1] [3, 7, 30] [1, 1, 1] : tensor<3x7x32xbf16> to tensor<3x7x30xbf16>
  %r = tensor.extract_slice %p[0, 0, 2] [3, 7, 30] [1, 1, 1] : tensor<3x7x32xbf16> to tensor<3x7x30xbf16>
  %e = tensor.empty() : tensor<3x7x30xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%l, %m, %r : tensor<3x7x30xbf16>, tensor<3x7x30xbf16>, tensor<3x7x30xbf16>) outs(%e : tensor<3x7x30xbf16>) {
  ^bb0(%u: bf16, %v: bf16, %w: bf16, %o: bf16):
    %uf = arith.extf %u : bf16 to f32
    %vf = arith.extf %v : bf16 to f32
    %wf = arith.extf %w : bf16 to f32
    %k = arith.constant 2.0 : f32
    %v2 = arith.mulf %vf, %k : f32
    %s = arith.addf %uf, %v2 : f32
    %t = arith.subf %s, %wf : f32
    %tt = arith.truncf %t : f32 to bf16
    linalg.yield %tt : bf16
  } -> tensor<3x7x30xbf16>
  return %y : tensor<3x7x30xbf16>
}
