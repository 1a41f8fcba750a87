// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(memopt-check-input-contract)"

// Static slices are in the contract (memopt-fold-slices); dynamic ones
// are not.
func.func @extract_slice(%x: tensor<16x8xf32>) -> tensor<16x1xf32> {
  %i = arith.constant 3 : index
  // expected-error @+1 {{'tensor.extract_slice' op has dynamic offsets, sizes or strides; the input contract takes static slices only}}
  %s = tensor.extract_slice %x[0, %i] [16, 1] [1, 1] : tensor<16x8xf32> to tensor<16x1xf32>
  return %s : tensor<16x1xf32>
}

// -----

// Inserts with strides (every other element of the destination).
func.func @strided_insert(%x: tensor<16x4xf32>, %d: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tensor.insert_slice' op inserts with strides other than 1; the input contract takes unit-stride inserts only}}
  %s = tensor.insert_slice %x into %d[0, 0] [16, 4] [1, 2] : tensor<16x4xf32> into tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// -----

func.func @scf_for(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'scf.for' op is outside memopt's input contract}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<?xf32>': dynamic shapes are not supported}}
func.func @dynamic_shape(%x: tensor<?xf32>) {
  return
}

// -----

// expected-error @+1 {{'func.func' op has an unsupported result type 'tensor<?x4xf32>': dynamic shapes are not supported}}
func.func @dynamic_result(%x: tensor<8x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'tensor.cast' op is outside memopt's input contract}}
  %c = tensor.cast %x : tensor<8x4xf32> to tensor<?x4xf32>
  // expected-error @+1 {{'func.return' op has an unsupported operand: dynamic shapes are not supported}}
  return %c : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<4xcomplex<f32>>': element type is not one of f16, bf16, f32, f64, i1, i2, i4, i8, i16, i32, i64}}
func.func @complex_element(%x: tensor<4xcomplex<f32>>) {
  return
}

// -----

// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<4xf8E4M3FN>': element type is not one of}}
func.func @f8_element(%x: tensor<4xf8E4M3FN>) {
  return
}

// -----

// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<4xi3>': element type is not one of}}
func.func @i3_element(%x: tensor<4xi3>) {
  return
}

// -----

// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<*xf32>': only statically shaped ranked tensors are supported}}
func.func @unranked(%x: tensor<*xf32>) {
  return
}

// -----

#enc = {foo}
// expected-error @+1 {{'func.func' op has an unsupported argument type 'tensor<4xf32, {foo}>': tensor encodings are not supported}}
func.func @encoding(%x: tensor<4xf32, #enc>) {
  return
}

// -----

#skew = affine_map<(d0, d1) -> (d0 + d1)>
#out = affine_map<(d0, d1) -> (d0, d1)>
func.func @non_permutation_map(%x: tensor<40xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  // expected-error @+1 {{'linalg.generic' op has an indexing map that is neither a projected permutation nor constant-index: affine_map<(d0, d1) -> (d0 + d1)>}}
  %y = linalg.generic {indexing_maps = [#skew, #out], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<40xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// A repeated loop dimension (a diagonal) is not a projected permutation.
#diag = affine_map<(d0) -> (d0, d0)>
#id = affine_map<(d0) -> (d0)>
func.func @repeated_dim_map(%x: tensor<16x16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  // expected-error @+1 {{'linalg.generic' op has an indexing map that is neither a projected permutation nor constant-index: affine_map<(d0) -> (d0, d0)>}}
  %y = linalg.generic {indexing_maps = [#diag, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16x16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @non_arith_body_op(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    // expected-error @+1 {{'ub.poison' op is not supported in a linalg body (only arith and math ops are)}}
    %p = ub.poison : f32
    linalg.yield %p : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// expected-error @+1 {{'func.func' op has an unsupported argument type 'memref<16xf32>': only statically shaped ranked tensors are supported}}
func.func @memref_linalg(%x: memref<16xf32>, %y: memref<16xf32>) {
  // expected-error @+1 {{'linalg.copy' op has an unsupported operand: only statically shaped ranked tensors are supported}}
  linalg.copy ins(%x : memref<16xf32>) outs(%y : memref<16xf32>)
  return
}

// -----

func.func @tensor_arith_outside_linalg(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.addf' op is outside the input contract: only scalar arith/math ops may appear outside linalg}}
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op must have a single block}}
func.func @multi_block(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

// -----

// Every violation in a function is reported, not only the first one.
func.func @two_violations(%x: tensor<16x8xf32>) -> tensor<16x1xf32> {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'tensor.extract_slice' op has dynamic offsets}}
  %s = tensor.extract_slice %x[0, %c3] [16, 1] [1, 1] : tensor<16x8xf32> to tensor<16x1xf32>
  // expected-error @+1 {{'tensor.pad' op pads with a value that is not a constant; the input contract takes constant padding only}}
  %p = tensor.pad %s low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %c = arith.index_cast %i : index to i32
    %z = arith.sitofp %c : i32 to f32
    tensor.yield %z : f32
  } : tensor<16x1xf32> to tensor<16x1xf32>
  return %p : tensor<16x1xf32>
}

// -----

// Scalars enter through arith.constant or linalg.fill, never as function arguments.
// expected-error @+1 {{'func.func' op has an unsupported argument type 'f32': only statically shaped ranked tensors are supported}}
func.func @scalar_argument(%a: f32, %x: tensor<4xf32>) {
  return
}

// -----

// Zero-size pieces.
func.func @empty_piece(%x: tensor<0x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tensor.concat' op slices or assembles a tensor with a zero-size dim}}
  %c = tensor.concat dim(0) %x, %y : (tensor<0x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// Padding with a value computed in the function.
func.func @pad_by_value(%x: tensor<4x8xf32>) -> tensor<4x10xf32> {
  %one = arith.constant 1.0 : f32
  %s = arith.negf %one : f32
  // expected-error @+1 {{'tensor.pad' op pads with a value that is not a constant}}
  %p = tensor.pad %x low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %s : f32
  } : tensor<4x8xf32> to tensor<4x10xf32>
  return %p : tensor<4x10xf32>
}
