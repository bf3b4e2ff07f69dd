// The cell examples/command.mjs runs in ./build.sh test-wasip1 (read through the /data preopen).
text("from a file");
return [1, 2].map((x) => x * 2);
