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

/// Run the client under Xvfb on a screen of `size` ("1920x1080") with
/// `args`.
pub fn run_client(size: &str, args: &[&str]) -> std::process::Output {
    Command::new("xvfb-run")
        .args(["-a", "-s", &format!("-screen 0 {size}x24")])
        .arg(env!("CARGO_BIN_EXE_skirmish"))
        .args(["--size", size])
        .args(args)
        .env("WGPU_BACKEND", "vulkan")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("xvfb-run runs")
}
