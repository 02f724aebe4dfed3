use super::*;

#[test]
fn ratio_of_nothing_is_none() {
    assert_eq!(ratio(1, 0), None);
    assert_eq!(ratio(1, 4), Some(0.25));
}
