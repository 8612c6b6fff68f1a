# Sourced INSIDE the cross chroot after tools/cross-env.sh: the static library for Unity WebGL
# (wasm32-unknown-emscripten), stripped, into /out/web/. Unity links it with its own, older
# emscripten (3.1.8 in 2022.x, 3.1.38 in Unity 6, 4.0.19 from 6000.5): so JS exceptions, not
# wasm-eh (-Zemscripten-wasm-eh=false; a caught panic then needs -sDISABLE_EXCEPTION_CATCHING=0
# at the final link), and no wasm feature newer than the MVP (-Ctarget-cpu=mvp), std included.
# Only the staticlib: a cdylib is a side module Unity cannot use (cargo rustc picks the one type).
export CARGO_TARGET_WASM32_UNKNOWN_EMSCRIPTEN_RUSTFLAGS="-Zemscripten-wasm-eh=false -Ctarget-cpu=mvp $REMAP"
E=wasm32-unknown-emscripten
cargo rustc "${BUILD[@]:2}" --target $E -p argus --lib --crate-type staticlib
o=/out/web && rm -rf $o && mkdir -p $o
cp /target/$E/release/libargus.a $o/
llvm-strip --strip-debug $o/libargus.a
ls -l $o
