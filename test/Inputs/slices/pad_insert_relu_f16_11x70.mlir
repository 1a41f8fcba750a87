// Zero padding as older torch-mlir lowers F.pad: a filled tensor with the
// input inserted at an offset (tensor.insert_slice), then a ReLU; and an
// insert into an empty tensor assembled from two pieces (the older cat).
func.func @pad_relu(%x: tensor<11x70xf16>, %y: tensor<11x30xf16>) -> (tensor<14x75xf16>, tensor<11x100xf16>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<14x75xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<14x75xf16>) -> tensor<14x75xf16>
  %p = tensor.insert_slice %x into %f[1, 3] [11, 70] [1, 1] : tensor<11x70xf16> into tensor<14x75xf16>
  %e2 = tensor.empty() : tensor<14x75xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<14x75xf16>) outs(%e2 : tensor<14x75xf16>) {
  ^bb0(%v: f16, %o: f16):
    %m = arith.maximumf %v, %zero : f16
    linalg.yield %m : f16
  } -> tensor<14x75xf16>
  %c = tensor.empty() : tensor<11x100xf16>
  %c1 = tensor.insert_slice %x into %c[0, 0] [11, 70] [1, 1] : tensor<11x70xf16> into tensor<11x100xf16>
  %c2 = tensor.insert_slice %y into %c1[0, 70] [11, 30] [1, 1] : tensor<11x30xf16> into tensor<11x100xf16>
  return %r, %c2 : tensor<14x75xf16>, tensor<11x100xf16>
}
