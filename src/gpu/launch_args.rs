//! The argument layout shared by the CUDA C this crate emits (kernels/common.cuh's
//! `nb_array`, and the compiler's generated kernels) and the launch code.

/// An array argument passed by value: base pointer, shape and byte strides of up to three
/// dimensions. Unused trailing dimensions have extent 1 and stride 0. Must match
/// `struct nb_array` in kernels/common.cuh field for field.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArrayDesc {
    pub data: u64,
    pub shape: [i64; 3],
    pub strides: [i64; 3],
}

// SAFETY: `ArrayDesc` is `#[repr(C)]`, made only of plain integers, and laid out exactly
// as `struct nb_array { char *data; long long shape[3]; long long strides[3]; }` on a
// 64-bit target, so passing its bytes as a kernel parameter is sound.
unsafe impl cudarc::driver::DeviceRepr for ArrayDesc {}

impl ArrayDesc {
    /// A descriptor for `shape`/`strides` (bytes) at device address `data`; None for more
    /// than three dimensions.
    pub fn new(data: u64, shape: &[usize], strides: &[isize]) -> Option<ArrayDesc> {
        if shape.len() > 3 || shape.len() != strides.len() {
            return None;
        }
        // Right-align so the innermost dimension is always index 2 (C order).
        let mut d = ArrayDesc {
            data,
            shape: [1; 3],
            strides: [0; 3],
        };
        let pad = 3 - shape.len();
        for (i, (&n, &s)) in shape.iter().zip(strides).enumerate() {
            d.shape[pad + i] = n as i64;
            d.strides[pad + i] = s as i64;
        }
        Some(d)
    }

    /// The layout the compiler's generated kernels read (`nb_arr`): dimension `k` of the
    /// view at index `k`, so a kernel indexes `shape[axis]` directly. None for more than
    /// three dimensions.
    pub fn left_aligned(data: u64, shape: &[usize], strides: &[isize]) -> Option<ArrayDesc> {
        if shape.len() > 3 || shape.len() != strides.len() {
            return None;
        }
        let mut d = ArrayDesc {
            data,
            shape: [1; 3],
            strides: [0; 3],
        };
        for (i, (&n, &s)) in shape.iter().zip(strides).enumerate() {
            d.shape[i] = n as i64;
            d.strides[i] = s as i64;
        }
        Some(d)
    }
}

/// One kernel argument.
#[derive(Clone, Copy, Debug)]
pub enum LaunchArg {
    Array(ArrayDesc),
    Ptr(u64),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Bool(bool),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_nb_array() {
        assert_eq!(std::mem::size_of::<ArrayDesc>(), 8 + 3 * 8 + 3 * 8);
        let d = ArrayDesc::new(0x1000, &[4, 5], &[20, 4]).unwrap();
        assert_eq!(d.shape, [1, 4, 5]);
        assert_eq!(d.strides, [0, 20, 4]);
        assert!(ArrayDesc::new(0, &[1, 1, 1, 1], &[0, 0, 0, 0]).is_none());
    }
}
