//! Signatures and one-paragraph docs of the ndarray methods, for `arr.sum?`, inspection and
//! keyword completion inside calls (`arr.sum(ax` → `axis=`). Written for nbcuda; the
//! parameter lists are the ones nbcuda's methods accept.

/// (signature, doc) of `ndarray.<name>`, or None for an unknown name.
pub fn method_doc(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "all" => (
            "all(axis=None, out=None, keepdims=False)",
            "True when every element (or every element along axis) is non-zero. With axis the result is an array of booleans, one per remaining position; keepdims=True keeps the reduced axis with length 1.",
        ),
        "any" => (
            "any(axis=None, out=None, keepdims=False)",
            "True when at least one element (or one along axis) is non-zero. With axis the result is an array of booleans; keepdims=True keeps the reduced axis with length 1.",
        ),
        "argmax" => (
            "argmax(axis=None, out=None, keepdims=False)",
            "The index of the largest element: into the flattened array without axis, or along axis as an array of indices. The first occurrence wins on ties; NaN counts as the largest.",
        ),
        "argmin" => (
            "argmin(axis=None, out=None, keepdims=False)",
            "The index of the smallest element: into the flattened array without axis, or along axis as an array of indices. The first occurrence wins on ties; NaN counts as the smallest.",
        ),
        "astype" => (
            "astype(dtype, order='K', casting='unsafe', subok=True, copy=True)",
            "A new array with the same shape and every element converted to dtype (floats to integers truncate toward zero). The original array is left unchanged.",
        ),
        "copy" => (
            "copy(order='C')",
            "A new C-contiguous array holding a copy of the data; writes to it never reach the original, unlike a view from slicing.",
        ),
        "cumprod" => (
            "cumprod(axis=None, dtype=None, out=None)",
            "Running products: element i holds the product of the elements up to and including i, over the flattened array or along axis.",
        ),
        "cumsum" => (
            "cumsum(axis=None, dtype=None, out=None)",
            "Running sums: element i holds the sum of the elements up to and including i, over the flattened array or along axis.",
        ),
        "fill" => (
            "fill(value)",
            "Set every element to value (converted to the array's dtype), in place; returns None.",
        ),
        "flatten" => (
            "flatten(order='C')",
            "A one-dimensional copy of the array in row-major order. Unlike ravel it always copies.",
        ),
        "item" => (
            "item(*args)",
            "One element as a plain Python number: the only element of a size-1 array, or the element at a flat index.",
        ),
        "max" => (
            "max(axis=None, out=None, keepdims=False)",
            "The largest element, or the largest along axis as an array. NaN propagates: any NaN makes the result NaN.",
        ),
        "mean" => (
            "mean(axis=None, dtype=None, out=None, keepdims=False)",
            "The arithmetic mean of all elements or along axis. Integer arrays average in float64; float32 arrays stay float32 unless dtype= says otherwise.",
        ),
        "min" => (
            "min(axis=None, out=None, keepdims=False)",
            "The smallest element, or the smallest along axis as an array. NaN propagates: any NaN makes the result NaN.",
        ),
        "prod" => (
            "prod(axis=None, dtype=None, out=None, keepdims=False)",
            "The product of all elements or along axis. Small integer types are multiplied as the platform integer, as NumPy does.",
        ),
        "ravel" => (
            "ravel(order='C')",
            "The elements as a one-dimensional array: a view when the data is contiguous, otherwise a copy.",
        ),
        "reshape" => (
            "reshape(shape, /, *, order='C')",
            "The same data seen with a new shape (one dimension may be -1 to infer it). The element count must match; contiguous arrays give a view.",
        ),
        "squeeze" => (
            "squeeze(axis=None)",
            "The array without its length-1 axes (or only the given one), as a view.",
        ),
        "std" => (
            "std(axis=None, dtype=None, out=None, ddof=0, keepdims=False)",
            "The standard deviation of all elements or along axis: the square root of the mean squared deviation, divided by N - ddof.",
        ),
        "sum" => (
            "sum(axis=None, dtype=None, out=None, keepdims=False)",
            "The sum of all elements or along axis. Floats add pairwise as NumPy does; small integer types accumulate in the platform integer; dtype= picks the accumulator.",
        ),
        "tolist" => (
            "tolist()",
            "The array as nested Python lists of Python numbers (a plain number for a 0-d array).",
        ),
        "transpose" => (
            "transpose(*axes)",
            "A view with the axes reversed, or permuted as given. For 2-D arrays this is the matrix transpose, also available as .T.",
        ),
        "var" => (
            "var(axis=None, dtype=None, out=None, ddof=0, keepdims=False)",
            "The variance of all elements or along axis: the mean squared deviation from the mean, divided by N - ddof.",
        ),
        "view" => (
            "view(dtype=None)",
            "A new array object sharing this array's memory, optionally reinterpreting the bytes as another dtype (a different size rescales the last axis, which must be contiguous).",
        ),
        "clip" => (
            "clip(min=None, max=None, out=None)",
            "A copy with values below min raised to min and values above max lowered to max.",
        ),
        "round" => (
            "round(decimals=0, out=None)",
            "Round to the given number of decimals, halves to the nearest even value, as np.round does.",
        ),
        "dot" => (
            "dot(b, out=None)",
            "The dot product with b: inner product for 1-D, matrix product for 2-D operands (the @ operator).",
        ),
        "nonzero" => (
            "nonzero()",
            "A tuple with one index array per dimension, listing the positions of the non-zero elements.",
        ),
        "sort" => (
            "sort(axis=-1, kind=None, order=None)",
            "Sort the array in place along the last axis (NaN last); returns None. np.sort returns a sorted copy instead.",
        ),
        "argsort" => (
            "argsort(axis=-1, kind=None, order=None)",
            "The indices that would sort the array along the last axis.",
        ),
        "swapaxes" => (
            "swapaxes(axis1, axis2)",
            "A view with the two axes exchanged.",
        ),
        "repeat" => (
            "repeat(repeats, axis=None)",
            "Each element (or each slice along axis) repeated; flattened when axis is None.",
        ),
        _ => return None,
    })
}
