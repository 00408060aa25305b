// Debian's /usr/bin/chromium is used (its SwiftShader gives WebGPU without a GPU); never download a browser.
module.exports = { skipDownload: true };
