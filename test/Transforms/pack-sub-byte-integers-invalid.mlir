// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-check-input-contract,func.func(memopt-pack-sub-byte-integers))"

// Sub-byte tensors are stored packed along their innermost dim: an odd
// one cannot be.
// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<4x7xi4>': an i2/i4 tensor is stored packed along its innermost dim, which must then be a multiple of 2}}
func.func @odd_innermost(%x: tensor<4x7xi4>) {
  return
}

// -----

// i2 packs four to a byte.
// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<4x6xi2>': an i2/i4 tensor is stored packed along its innermost dim, which must then be a multiple of 4}}
func.func @i2_not_multiple_of_4(%x: tensor<4x6xi2>) {
  return
}

// -----

// An i4 result would need packed stores.
// expected-error @+1 {{'func.func' op has a result of type 'tensor<8xi4>'; i2/i4 tensors are supported only as function inputs (stored packed)}}
func.func @i4_result(%x: tensor<8xi4>) -> tensor<8xi4> {
  return %x : tensor<8xi4>
}

// -----

// So would an i4 intermediate.
#map = affine_map<(d0) -> (d0)>
func.func @i4_intermediate(%x: tensor<8xi8>) -> tensor<8xi8> {
  // expected-error @+1 {{'tensor.empty' op produces a 'tensor<8xi4>'; i2/i4 tensors are supported only as function inputs (stored packed) and reshapes of them}}
  %e = tensor.empty() : tensor<8xi4>
  // expected-error @+1 {{'linalg.generic' op produces a 'tensor<8xi4>'; i2/i4 tensors are supported only as function inputs (stored packed) and reshapes of them}}
  %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : tensor<8xi8>) outs(%e : tensor<8xi4>) {
  ^bb0(%a: i8, %o: i4):
    %n = arith.trunci %a : i8 to i4
    linalg.yield %n : i4
  } -> tensor<8xi4>
  %e8 = tensor.empty() : tensor<8xi8>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%t : tensor<8xi4>) outs(%e8 : tensor<8xi8>) {
  ^bb0(%a: i4, %o: i8):
    %w = arith.extsi %a : i4 to i8
    linalg.yield %w : i8
  } -> tensor<8xi8>
  return %r : tensor<8xi8>
}

// -----

// A slice of packed storage at an odd offset is not a byte range.
func.func @i4_slice(%x: tensor<8x16xi4>) -> tensor<8x8xi8> {
  // expected-error @+1 {{'tensor.extract_slice' op produces a 'tensor<8x8xi4>'; i2/i4 tensors are supported only as function inputs (stored packed) and reshapes of them}}
  %s = tensor.extract_slice %x[0, 3] [8, 8] [1, 1] : tensor<8x16xi4> to tensor<8x8xi4>
  %e = tensor.empty() : tensor<8x8xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xi4>) outs(%e : tensor<8x8xi8>) {
  ^bb0(%a: i4, %o: i8):
    %w = arith.extsi %a : i4 to i8
    linalg.yield %w : i8
  } -> tensor<8x8xi8>
  return %r : tensor<8x8xi8>
}

// -----

// A reshape that splits the packed dim into pieces of odd length.
func.func @i4_odd_reshape(%x: tensor<4x6xi4>) -> tensor<4x2x3xi8> {
  // expected-error @+1 {{'tensor.expand_shape' op has an unsupported result: an i2/i4 tensor is stored packed along its innermost dim, which must then be a multiple of 2}}
  %v = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xi4> into tensor<4x2x3xi4>
  %e = tensor.empty() : tensor<4x2x3xi8>
  // expected-error @+1 {{'linalg.generic' op has an unsupported operand: an i2/i4 tensor is stored packed}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v : tensor<4x2x3xi4>) outs(%e : tensor<4x2x3xi8>) {
  ^bb0(%a: i4, %o: i8):
    %w = arith.extsi %a : i4 to i8
    linalg.yield %w : i8
  } -> tensor<4x2x3xi8>
  return %r : tensor<4x2x3xi8>
}
