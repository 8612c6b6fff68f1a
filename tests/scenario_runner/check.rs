//! Comparisons that record a precise message (file, timeline index, action, expected vs actual)
//! instead of panicking, so one run reports every failure of every file.

use std::fmt::Debug;

use argus_core::Vec3;

use super::format::V3;

pub struct Checks {
    /// File name and timeline position, e.g. `brain.json: timeline[3] step`.
    pub context: String,
    pub failures: Vec<String>,
}

impl Checks {
    pub fn new() -> Self {
        Checks { context: String::new(), failures: Vec::new() }
    }

    pub fn fail(&mut self, message: impl AsRef<str>) {
        self.failures.push(format!("{}: {}", self.context, message.as_ref()));
    }

    pub fn eq<T: PartialEq + Debug>(&mut self, what: &str, expected: T, actual: T) {
        if expected != actual {
            self.fail(format!("{what}: expected {expected:?}, got {actual:?}"));
        }
    }

    pub fn float(&mut self, what: &str, expected: f32, actual: f32, tolerance: f32) {
        if (expected - actual).abs() > tolerance || actual.is_nan() {
            self.fail(format!("{what}: expected {expected} ± {tolerance}, got {actual}"));
        }
    }

    pub fn vec3(&mut self, what: &str, expected: V3, actual: Vec3, tolerance: f32) {
        let e = Vec3::from_array(expected);
        if (e - actual).abs().max_element() > tolerance || actual.is_nan() {
            self.fail(format!("{what}: expected {expected:?} ± {tolerance}, got {:?}", actual.to_array()));
        }
    }

    /// Checks a field only when the file gives it.
    pub fn opt_float(&mut self, what: &str, expected: Option<f32>, actual: f32, tolerance: f32) {
        if let Some(e) = expected {
            self.float(what, e, actual, tolerance);
        }
    }

    pub fn opt_vec3(&mut self, what: &str, expected: Option<V3>, actual: Vec3, tolerance: f32) {
        if let Some(e) = expected {
            self.vec3(what, e, actual, tolerance);
        }
    }

    pub fn opt_eq<T: PartialEq + Debug>(&mut self, what: &str, expected: Option<T>, actual: T) {
        if let Some(e) = expected {
            self.eq(what, e, actual);
        }
    }

    /// Lists must have the same length before their items are compared one by one.
    pub fn same_len(&mut self, what: &str, expected: usize, actual: usize, actual_list: &dyn Debug) -> bool {
        if expected != actual {
            self.fail(format!("{what}: expected {expected} item(s), got {actual}: {actual_list:?}"));
            return false;
        }
        true
    }
}
