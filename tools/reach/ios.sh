# Sourced INSIDE the cross chroot after tools/cross-env.sh: the iOS arm64 (aarch64-apple-ios) static
# library of the C ABI and the Godot add-on's dylib, stripped, into /out/ios-arm64/. Unity links
# the archive into the app and calls it through __Internal, so it needs no linker; the deployment
# target is written into every object (LC_BUILD_VERSION minos: Xcode warns on objects newer than
# the app's).
export IPHONEOS_DEPLOYMENT_TARGET=12.0
I=aarch64-apple-ios
# Godot loads a dylib, linked by ld64.lld against a stand-in iPhoneOS SDK: the macOS stand-in's
# .tbd stubs (tools/release.sh) with arm64-macos relabelled arm64-ios (ld64.lld takes a stub only
# for the platform it links; the libSystem symbols the add-on needs are the same on both).
sdk=/target/reach-iphoneos-sdk && mkdir -p $sdk/usr/lib
for t in /opt/macos-sdk/usr/lib/*.tbd; do sed 's/arm64-macos/arm64-ios/g' $t >$sdk/usr/lib/${t##*/}; done
export SDKROOT=$sdk
export CARGO_TARGET_AARCH64_APPLE_IOS_LINKER=ld64.lld
export CARGO_TARGET_AARCH64_APPLE_IOS_RUSTFLAGS="-Zunstable-options -Clinker-flavor=darwin-lld $REMAP"
# One invocation: std (build-std) and the shared dependencies are built once for both crates.
"${BUILD[@]}" --target $I -p argus --lib -p argus-godot
o=/out/ios-arm64 && rm -rf $o && mkdir -p $o
cp /target/$I/release/libargus.a $o/
cp /target/$I/release/libargus_godot.dylib $o/libargus_godot.ios.dylib
# Found by @rpath (the app's Frameworks), not a build path.
llvm-install-name-tool -id @rpath/libargus_godot.ios.dylib $o/libargus_godot.ios.dylib
llvm-strip -x $o/libargus_godot.ios.dylib
llvm-strip --strip-debug $o/libargus.a
ls -l $o
