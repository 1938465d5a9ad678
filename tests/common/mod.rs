//! Helpers shared by the end-to-end tests that open the window.

use std::process::Command;

pub fn have(cmd: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {cmd}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn vulkan_icd_present() -> bool {
    std::fs::read_dir("/usr/share/vulkan/icd.d").is_ok_and(|mut d| d.next().is_some())
}

/// Whether a window can be opened here (Xvfb and a Vulkan driver); says
/// why not when it can't.
pub fn stack_present() -> bool {
    if !have("xvfb-run") || !vulkan_icd_present() {
        eprintln!(
            "SKIPPED: needs xvfb-run and a Vulkan driver (apt-get install xvfb mesa-vulkan-drivers libxkbcommon-x11-0)"
        );
        return false;
    }
    true
}

/// Run the client under `xvfb-run` on a screen of `size` ("1920x1080");
/// `client` adds the client's arguments and environment.
///
/// Each run gets its own X authority file: without one, `xvfb-run` makes a
/// temporary directory and, when removing it fails as it exits (seen under
/// parallel tests), replaces the client's exit status with its own 5.
pub fn xvfb(size: &str, client: impl FnOnce(&mut Command)) -> std::process::Output {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let auth = std::env::temp_dir().join(format!(
        "skirmish-xauth-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_file(&auth);
    let mut cmd = Command::new("xvfb-run");
    cmd.arg("-a")
        .arg("-f")
        .arg(&auth)
        .args(["-s", &format!("-screen 0 {size}x24")])
        .arg(env!("CARGO_BIN_EXE_skirmish"))
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    client(&mut cmd);
    let out = cmd.output().expect("xvfb-run runs");
    let _ = std::fs::remove_file(&auth);
    out
}

/// Run the client under Xvfb on a screen of `size` ("1920x1080") with
/// `args`.
pub fn run_client(size: &str, args: &[&str]) -> std::process::Output {
    xvfb(size, |c| {
        c.args(["--size", size])
            .args(args)
            .env("WGPU_BACKEND", "vulkan");
    })
}
