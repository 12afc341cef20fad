"""The Fortran compiler of the cross builds: f2c posing as GNU Fortran (wasi_f77.py, run by
python-wasm/cross/wasi-f77), its Fortran 90 rewrites (f77prep.py) and the f2c.h its C is
compiled against."""
