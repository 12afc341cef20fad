/* Force-included (by wasi-cc) into pandas._libs.pandas_datetime only.
 * pandas vendors an old copy of numpy's datetime code (src/vendored/numpy/datetime/np_datetime.c) whose
 * global functions have the same names as numpy's own in _multiarray_umath (datetime.c): statically
 * linked, wasm-ld reports "duplicate symbol: is_leapyear" etc. Renamed inside this module (definitions,
 * declarations and the PandasDateTime_CAPI member names alike; member names are not ABI).
 * Upstream: none (pandas/numpy each assume private symbols in their own shared module). */
#define is_leapyear pd_vendored_is_leapyear
#define get_datetimestruct_days pd_vendored_get_datetimestruct_days
#define add_minutes_to_datetimestruct pd_vendored_add_minutes_to_datetimestruct
#define get_datetime_metadata_from_dtype pd_vendored_get_datetime_metadata_from_dtype
