"""The top layer: the `finestate` command (main.py builds it from commands/, one module
per command; options.py and inputs.py are what they share), its tables, and
android_device_test (`make android-device-test`, the app's native views on the user's own
device). `make bench` and `make soak` are not here: they are benchmarks/, in the checkout."""
