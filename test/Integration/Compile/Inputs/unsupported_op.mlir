func.func @pad(%x: tensor<16x8xf32>) -> tensor<18x8xf32> {
  %p = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %z = arith.constant 0.0 : f32
    tensor.yield %z : f32
  } : tensor<16x8xf32> to tensor<18x8xf32>
  return %p : tensor<18x8xf32>
}
